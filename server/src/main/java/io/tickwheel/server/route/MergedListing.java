package io.tickwheel.server.route;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntFunction;

/**
 * {@code GET /v1/timers} across every partition: a k-way merge of the partitions' own listings (each by
 * {@code nextDueAt}, then id), read straight from the partitions' stores (no owner needed, so every node answers the
 * same). The cursor is the single node's ({@code DUEAT~ID}, {@link TimerCursor}): the listing order is one total
 * order, so "after this cursor" means the same in every partition, and a cursor from any node works on any node.
 *
 * <h2>Bounded work per page</h2>
 * Each partition is first read for {@code c = ceil(2·limit/P)} timers (at least 1, at most {@code limit}), all in
 * parallel; a partition whose buffered timers run out while it has more is read again for twice as many (at most
 * {@code limit}) before the merge goes on. So a page holds at most {@code P·c + limit ≤ P + 3·limit} timers in memory
 * and makes at most {@code P + P·log2(limit)} store reads (far fewer when the page spreads over the partitions).
 *
 * <h2>Scan budget</h2>
 * A store may answer a filtered read ({@code topic=rare}) with fewer timers than asked, or none, and a {@code next}
 * (it bounds the entries one read examines), so finding a rare topic's next timer can take any number of reads. A
 * page therefore makes at most {@link #maxReads(int, int) P·(2 + ⌈log2(limit+1)⌉)} store reads (its scan budget, above
 * the unfiltered bound). When the budget is spent, the page ends short (fewer than {@code limit} timers, possibly
 * none) with a non-null {@code next}: the least position up to which every partition still to be read has been
 * read, after the buffered timers not past it. Every timer comes once over the pages, in the single order.
 *
 * <p>Owner context only; the future completes there and never fails.
 */
final class MergedListing {

  private static final Comparator<Timer> ORDER =
      Comparator.comparingLong(Timer::nextDueAt).thenComparing(Timer::id);

  private final int partitions;
  private final IntFunction<TimerStore> reader;
  private final int budgetOverride;

  /** @param reader partition {@code p}'s store, for reading ({@code ClusterCoordinator.partitionReader}) */
  MergedListing(int partitions, IntFunction<TimerStore> reader) {
    this(partitions, reader, 0);
  }

  /** With a scan budget of {@code maxReads} store reads a page ({@code >= partitions}; 0 for the default; tests). */
  MergedListing(int partitions, IntFunction<TimerStore> reader, int maxReads) {
    if (maxReads != 0 && maxReads < partitions) {
      throw new IllegalArgumentException("maxReads must be at least partitions (" + partitions + "), was " + maxReads);
    }
    this.partitions = partitions;
    this.reader = reader;
    this.budgetOverride = maxReads;
  }

  /**
   * The scan budget of a page of {@code limit} over {@code partitions}: {@code P·(2 + ⌈log2(limit+1)⌉)} store reads
   * (e.g. 16 partitions, limit 100: 144 reads).
   */
  static int maxReads(int partitions, int limit) {
    return partitions * (2 + 32 - Integer.numberOfLeadingZeros(limit));
  }

  /** One partition's part of a page. */
  private static final class Part {
    final int p;
    final ArrayDeque<Timer> buf = new ArrayDeque<>();
    TimerCursor after;
    boolean more = true;
    int chunk;
    /** Whether it has been read at least once (then {@link #after} is where its reading stands). */
    boolean read;

    Part(int p, TimerCursor after, int chunk) {
      this.p = p;
      this.after = after;
      this.chunk = chunk;
    }
  }

  /** A page of up to {@code limit} timers strictly after {@code after} (or from the start), of {@code topic} or all. */
  Future<ReadOutcome> page(String topic, TimerCursor after, int limit) {
    int chunk = Math.max(1, Math.min(limit, (2 * limit + partitions - 1) / partitions));
    List<Part> parts = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      parts.add(new Part(p, after, chunk));
    }
    PriorityQueue<Part> heads = new PriorityQueue<>(partitions, (a, b) -> ORDER.compare(a.buf.peek(), b.buf.peek()));
    int budget = budgetOverride != 0 ? budgetOverride : maxReads(partitions, limit);
    return merge(topic, limit, parts, heads, new ArrayList<>(limit), new int[] {budget});
  }

  private Future<ReadOutcome> merge(String topic, int limit, List<Part> parts, PriorityQueue<Part> heads, List<Timer> out,
      int[] budget) {
    List<Part> starving = new ArrayList<>();
    for (Part x : parts) {
      if (x.more && x.buf.isEmpty()) {
        starving.add(x);
      }
    }
    if (!starving.isEmpty() && starving.size() > budget[0]) {
      return Future.succeededFuture(spent(parts, heads, out, limit));
    }
    if (!starving.isEmpty()) {
      budget[0] -= starving.size();
      List<Future<TimerPage>> reads = new ArrayList<>(starving.size());
      for (Part x : starving) {
        reads.add(reader.apply(x.p).list(topic, x.after, x.chunk));
      }
      return Future.join(reads).transform(ar -> {
        for (int i = 0; i < starving.size(); i++) {
          Future<TimerPage> r = reads.get(i);
          if (r.failed()) {
            return Future.succeededFuture(Refusal.ofStoreFailure(r.cause(), false));
          }
          Part x = starving.get(i);
          TimerPage pg = r.result();
          x.buf.addAll(pg.timers());
          x.read = true;
          x.more = pg.next() != null;
          if (x.more) {
            x.after = pg.next();
          }
          if (!pg.timers().isEmpty()) {
            heads.add(x);
          }
          x.chunk = Math.min(limit, x.chunk * 2);
        }
        return merge(topic, limit, parts, heads, out, budget);
      });
    }
    while (out.size() < limit && !heads.isEmpty()) {
      Part x = heads.poll();
      out.add(x.buf.poll());
      if (!x.buf.isEmpty()) {
        heads.add(x);
      } else if (x.more && out.size() < limit) {
        return merge(topic, limit, parts, heads, out, budget);   // its next timer may come first: read it first
      }
    }
    boolean rest = !heads.isEmpty();
    for (Part x : parts) {
      rest |= x.more;
    }
    TimerCursor next = out.size() == limit && rest ? TimerCursor.after(out.get(out.size() - 1)) : null;
    return Future.succeededFuture(new ReadOutcome.Listed(new TimerPage(out, next)));
  }

  /**
   * The page when the scan budget is spent with partitions still to read: the buffered timers up to the frontier
   * (the least position a partition still to read has been read to, lowered when a partition runs dry meanwhile; no
   * unread timer comes before it), then a cursor.
   * Every part still to read has been read once (the budget covers the first read of every partition).
   */
  private static ReadOutcome spent(List<Part> parts, PriorityQueue<Part> heads, List<Timer> out, int limit) {
    TimerCursor frontier = null;
    for (Part x : parts) {
      if (x.more && x.buf.isEmpty()) {
        if (!x.read) {
          throw new IllegalStateException("partition " + x.p + " was never read: the budget must cover every partition");
        }
        if (frontier == null || before(x.after, frontier)) {
          frontier = x.after;
        }
      }
    }
    while (out.size() < limit && !heads.isEmpty() && !frontier.precedes(heads.peek().buf.peek())) {
      Part x = heads.poll();
      out.add(x.buf.poll());
      if (!x.buf.isEmpty()) {
        heads.add(x);
      } else if (x.more && before(x.after, frontier)) {
        frontier = x.after;          // it ran dry: its unread timers may come before the frontier
      }
    }
    TimerCursor next = out.size() == limit ? TimerCursor.after(out.get(out.size() - 1)) : frontier;
    return new ReadOutcome.Listed(new TimerPage(out, next));
  }

  private static boolean before(TimerCursor a, TimerCursor b) {
    return a.dueAt() < b.dueAt() || (a.dueAt() == b.dueAt() && a.id().compareTo(b.id()) < 0);
  }
}
