package io.tickwheel.store.rocksdb;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * The store's single writer thread: takes the oldest queued write call and everything queued behind it (up
 * to {@code maxGroupOps}), folds them in queue order into one {@link WriteGroup}, writes it with one
 * {@code db.write} (WAL on; fsynced when so configured), then publishes how far the queue is applied and
 * completes the calls' futures on their callers' contexts. A call that fails while being applied (e.g. an
 * undecodable stored record) is rolled back to its save point and fails alone, not applied; a failed
 * {@code db.write} fails the whole group (a {@link io.tickwheel.core.store.StoreUnavailableException} for an I/O
 * error, such as a full disk, that may have been applied) and advances no counter. Its mutable state: the
 * sequence counters and the {@link RecentTimers} it wrote (updated only after a successful {@code db.write}).
 */
final class GroupCommitWriter implements Runnable {

  private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());

  private final Db db;
  private final EventLoopGuard guard;
  private final BlockingQueue<WriteOp<?>> queue;
  private final int maxGroupOps;
  private final LongConsumer onApplied;
  private final Runnable shutdown;
  /** Writer-confined. */
  private final RecentTimers recent;
  /** Writer-confined. */
  private long lastSeq;
  private long firstRetained;
  private volatile long publishedLastSeq;
  /** Writer-confined: the number of stored timers ({@link Keys#TIMER_COUNT}). */
  private long timerCount;
  private volatile long publishedTimerCount;
  /** Writer-confined: the number of stored paused timers ({@link Keys#PAUSED_COUNT}). */
  private long pausedCount;
  private volatile long publishedPausedCount;
  /**
   * Writer-confined: per-topic counts as last written (a cache of the {@link Keys#topicCount} keys, so a group does
   * not read the database for a topic it wrote recently); at most {@value #MAX_KNOWN_TOPICS} topics, cleared when
   * full and after a failed write.
   */
  private final java.util.HashMap<String, Long> knownTopicCounts = new java.util.HashMap<>();
  static final int MAX_KNOWN_TOPICS = 10_000;
  final LongAdder groups = new LongAdder();
  final LongAdder ops = new LongAdder();

  /**
   * @param onApplied called with the highest ticket of a group once it is written (or failed), before any of
   *                  its futures completes
   * @param shutdown  runs on this thread after the last group, before the close call completes
   */
  GroupCommitWriter(Db db, EventLoopGuard guard, BlockingQueue<WriteOp<?>> queue, int maxGroupOps,
      RecentTimers recent, long lastSeq, long firstRetained, long timerCount, long pausedCount,
      LongConsumer onApplied, Runnable shutdown) {
    this.timerCount = timerCount;
    this.pausedCount = pausedCount;
    this.publishedPausedCount = pausedCount;
    this.publishedTimerCount = timerCount;
    this.recent = recent;
    this.db = db;
    this.guard = guard;
    this.queue = queue;
    this.maxGroupOps = maxGroupOps;
    this.lastSeq = lastSeq;
    this.firstRetained = firstRetained;
    this.publishedLastSeq = lastSeq;
    this.onApplied = onApplied;
    this.shutdown = shutdown;
  }

  /** The number of stored timers as of the latest group written; any thread. */
  long timerCount() {
    return publishedTimerCount;
  }

  /** The number of stored paused timers as of the latest group written; any thread. */
  long pausedCount() {
    return publishedPausedCount;
  }

  /** The seq of the latest firing written; any thread. */
  long lastSeq() {
    return publishedLastSeq;
  }

  @Override
  public void run() {
    List<WriteOp<?>> group = new ArrayList<>(Math.min(maxGroupOps, 4096));
    while (true) {
      WriteOp<?> first;
      try {
        first = queue.take();
      } catch (InterruptedException e) {
        continue; // only a Close ends this thread: queued calls must never be dropped
      }
      group.add(first);
      if (!(first instanceof WriteOp.Close)) {
        queue.drainTo(group, maxGroupOps - 1);
      }
      WriteOp<?> close = null;
      if (group.get(group.size() - 1) instanceof WriteOp.Close) {
        close = group.remove(group.size() - 1); // always last: nothing is queued after a Close
      }
      if (!group.isEmpty()) {
        commit(group);
        onApplied.accept(group.get(group.size() - 1).ticket);
        completeAll(group);
        group.clear();
      }
      if (close != null) {
        onApplied.accept(close.ticket);
        try {
          shutdown.run();
        } catch (RuntimeException | Error e) {
          close.failure = Failures.of(db.dir, "close", e, false);
        }
        completeAll(List.of(close));
        return;
      }
    }
  }

  private void commit(List<WriteOp<?>> group) {
    boolean writing = false;
    try (WriteGroup g = new WriteGroup(db, guard, recent, lastSeq, firstRetained, timerCount,
        pausedCount, knownTopicCounts)) {
      for (WriteOp<?> op : group) {
        applyOne(g, op);
      }
      g.finish();
      if (g.batch.count() > 0) {
        guard.check();
        writing = true;
        db.db.write(db.writeOptions, g.batch);
      }
      g.written(recent);
      lastSeq = g.lastSeq;
      firstRetained = g.firstRetained;
      publishedLastSeq = lastSeq;
      timerCount = g.timerCount;
      publishedTimerCount = timerCount;
      pausedCount = g.pausedCount;
      publishedPausedCount = pausedCount;
      if (knownTopicCounts.size() + g.writtenTopicCounts.size() > MAX_KNOWN_TOPICS) {
        knownTopicCounts.clear();
      }
      knownTopicCounts.putAll(g.writtenTopicCounts);
      groups.increment();
      ops.add(group.size());
    } catch (Throwable e) {
      LOG.log(System.Logger.Level.WARNING,
          "rocksdb group commit of " + group.size() + " calls failed in " + db.dir, e);
      // a failed db.write may have reached the WAL (e.g. its fsync failed): recovery may then replay it
      RuntimeException failure = Failures.of(db.dir, "write", e, writing);
      recent.forget();   // what RocksDB holds now is read again
      knownTopicCounts.clear();
      for (WriteOp<?> op : group) {
        if (op.failure == null) {
          op.failure = failure;
        }
      }
    }
  }

  private static <T> void applyOne(WriteGroup g, WriteOp<T> op) throws Exception {
    g.begin();
    try {
      op.result = op.apply(g);
      g.commitOp();
    } catch (Exception e) {
      g.rollbackOp();
      op.failure = Failures.of(g.db.dir, "write", e, false); // rolled back: nothing of it is written
    }
  }

  /** Completes each call on its caller's context, one task per context, in queue order within a context. */
  private static void completeAll(List<WriteOp<?>> done) {
    Map<Context, List<WriteOp<?>>> byContext = new IdentityHashMap<>();
    for (WriteOp<?> op : done) {
      byContext.computeIfAbsent(op.context, c -> new ArrayList<>()).add(op);
    }
    byContext.forEach((ctx, list) -> ctx.runOnContext(v -> {
      for (WriteOp<?> op : list) {
        try {
          op.complete();
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "a store callback threw", e);
        }
      }
    }));
  }
}
