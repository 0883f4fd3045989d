package io.tickwheel.core.store.memory;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A store that keeps everything on the heap: nothing survives the process. For {@code --store memory},
 * tests and benchmarks. Every call completes at once (on the caller's thread, hence on its context).
 * Its only failure is {@link StoreClosedException} after {@link #close()}. Thread safe (one lock).
 */
public final class MemoryTimerStore implements TimerStore, io.tickwheel.core.store.TimerExport, DueIndex {

  /** The listing order: {@code nextDueAt}, then id. Written out (not composed) as it runs ~20 times per write. */
  private static final Comparator<Timer> LISTING = (a, b) -> {
    int c = Long.compare(a.nextDueAt(), b.nextDueAt());
    return c != 0 ? c : a.id().compareTo(b.id());
  };

  private final Map<String, Timer> timers = new HashMap<>();
  private final NavigableSet<Timer> byDue = new TreeSet<>(LISTING);
  private final NavigableMap<Long, Firing> log = new TreeMap<>();
  private final Set<String> pausedTopics = new HashSet<>();
  /** Stored timers per topic (topics with none absent), and the paused ones: kept with every write. */
  private final TreeMap<String, long[]> byTopic = new TreeMap<>();
  private long pausedCount;
  /** Every delivery by seq, and the seqs of each state (listing by state without a scan). */
  private final NavigableMap<Long, Delivery> deliveries = new TreeMap<>();
  private final Map<DeliveryState, NavigableSet<Long>> deliveriesByState = new java.util.EnumMap<>(DeliveryState.class);
  private String webhookSecret;
  private long lastSeq;
  private boolean closed;

  {
    for (DeliveryState st : DeliveryState.values()) {
      deliveriesByState.put(st, new TreeSet<>());
    }
  }

  @Override
  public String name() {
    return "memory";
  }

  /** {@code true}: every timer given is kept as is. */
  @Override
  public boolean keepsTimersOnHeap() {
    return true;
  }

  @Override
  public synchronized Future<Void> put(Timer t) {
    if (closed) {
      return closedFuture();
    }
    store(t);
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Void> putAll(List<Timer> list) {
    if (closed) {
      return closedFuture();
    }
    for (Timer t : list) {
      store(t);
    }
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Timer> update(Timer next, long expectedGeneration) {
    if (closed) {
      return closedFuture();
    }
    Timer old = timers.get(next.id());
    if (old == null || old.generation() != expectedGeneration) {
      return Future.succeededFuture(null);
    }
    Timer stored = next.withPayload(old.payload());
    store(stored);
    return Future.succeededFuture(stored);
  }

  @Override
  public synchronized Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    try {
      TimerStore.checkUpdateAll(next, expectedGenerations);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (closed) {
      return closedFuture();
    }
    List<Timer> out = new ArrayList<>(next.size());
    for (int i = 0; i < next.size(); i++) {
      Timer n = next.get(i);
      Timer old = timers.get(n.id());
      if (old == null || old.generation() != expectedGenerations[i]) {
        out.add(null);
        continue;
      }
      Timer stored = n.withPayload(old.payload());
      store(stored);
      out.add(stored);
    }
    return Future.succeededFuture(out);
  }

  @Override
  public synchronized Future<Timer> get(String id) {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture(timers.get(id));
  }

  @Override
  public synchronized Future<Boolean> remove(String id) {
    if (closed) {
      return closedFuture();
    }
    Timer old = timers.remove(id);
    if (old != null) {
      byDue.remove(old);
      counted(old, -1);
    }
    return Future.succeededFuture(old != null);
  }

  @Override
  public synchronized Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    if (closed) {
      return closedFuture();
    }
    List<FiringResult> results = new ArrayList<>(requests.size());
    for (FiringRequest r : requests) {
      Timer stored = timers.get(r.id());
      if (stored == null || stored.generation() != r.generation() || stored.firings() != r.firingsBefore()) {
        results.add(FiringResult.stale());
        continue;
      }
      Firing f = null;
      if (r.fire()) {
        f = new Firing(++lastSeq, r.id(), stored.topic(), r.firingsBefore() + 1, r.dueAt(), r.firedAt(),
            stored.payload(), r.nominalAt());
        log.put(f.seq(), f);
      }
      Delivery d = null;
      if (f != null && r.callback() != null) {
        d = Delivery.pending(f, r.callback());
        putDelivery(d);
      }
      byDue.remove(stored);
      counted(stored, -1);
      if (r.next() == null) {
        timers.remove(r.id());
      } else {
        Timer next = r.next().withPayload(stored.payload());
        timers.put(next.id(), next);
        byDue.add(next);
        counted(next, 1);
      }
      results.add(f == null ? FiringResult.advanced() : FiringResult.fired(f, d));
    }
    return Future.succeededFuture(results);
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    List<Timer> snapshot;
    synchronized (this) {
      if (closed) {
        return closedFuture();
      }
      snapshot = new ArrayList<>(timers.values());
    }
    return feed(snapshot, 0, batchSize, sink).map(v -> (long) snapshot.size());
  }

  /**
   * {@inheritDoc}
   *
   * <p>The snapshot is the list of every timer taken under the store's lock when the export begins (timers are
   * immutable, so a reference is the version): one reference per timer, the timers themselves shared.
   */
  @Override
  public Future<Long> exportAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return loadAll(batchSize, sink);
  }

  private static <T> Future<Void> feed(List<T> all, int from, int batchSize, Function<List<T>, Future<Void>> sink) {
    if (from >= all.size()) {
      return Future.succeededFuture();
    }
    int to = Math.min(all.size(), from + batchSize);
    return sink.apply(Collections.unmodifiableList(all.subList(from, to)))
        .compose(v -> feed(all, to, batchSize, sink));
  }

  @Override
  public synchronized Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    if (closed) {
      return closedFuture();
    }
    Iterator<Timer> it = (after == null ? byDue
        : byDue.tailSet(probe(after), false)).iterator();
    List<Timer> page = new ArrayList<>(Math.min(limit, 1024));
    while (it.hasNext() && page.size() < limit) {
      Timer t = it.next();
      if (topic == null || topic.equals(t.topic())) {
        page.add(t);
      }
    }
    boolean more = false;
    while (it.hasNext()) {
      Timer t = it.next();
      if (topic == null || topic.equals(t.topic())) {
        more = true;
        break;
      }
    }
    TimerCursor next = more && !page.isEmpty() ? TimerCursor.after(page.get(page.size() - 1)) : null;
    return Future.succeededFuture(new TimerPage(page, next));
  }

  @Override
  public synchronized Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int limit) {
    try {
      DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (closed) {
      return closedFuture();
    }
    if (toMs <= fromMs) {
      return Future.succeededFuture(new TimerPage(List.of(), null));
    }
    Timer lo = probe(new TimerCursor(fromMs, ""));
    boolean loInclusive = true;
    if (after != null && LISTING.compare(probe(after), lo) >= 0) {
      lo = probe(after);
      loInclusive = false;
    }
    Timer hi = probe(new TimerCursor(toMs, ""));
    if (LISTING.compare(lo, hi) >= 0) {
      return Future.succeededFuture(new TimerPage(List.of(), null));
    }
    Iterator<Timer> it = byDue.subSet(lo, loInclusive, hi, false).iterator();
    List<Timer> page = new ArrayList<>(Math.min(limit, 1024));
    while (it.hasNext() && page.size() < limit) {
      page.add(it.next());
    }
    TimerCursor next = it.hasNext() ? TimerCursor.after(page.get(page.size() - 1)) : null;
    return Future.succeededFuture(new TimerPage(page, next));
  }

  @Override
  public synchronized Future<Set<String>> storedIds(List<String> ids) {
    if (ids.size() > MAX_DUE_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException("at most " + MAX_DUE_LIMIT + " ids, was " + ids.size()));
    }
    if (closed) {
      return closedFuture();
    }
    Set<String> found = new HashSet<>();
    for (String id : ids) {
      if (timers.containsKey(id)) {
        found.add(id);
      }
    }
    return Future.succeededFuture(found);
  }

  @Override
  public synchronized Future<Set<String>> createAbsent(List<Timer> list) {
    try {
      DueIndex.checkCreateAbsent(list);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (closed) {
      return closedFuture();
    }
    Set<String> found = new HashSet<>();
    for (Timer t : list) {
      if (timers.containsKey(t.id())) {
        found.add(t.id());
      } else {
        store(t);
      }
    }
    return Future.succeededFuture(found);
  }

  /** {@inheritDoc} A sorted map kept with every write. */
  @Override
  public synchronized Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    if (closed) {
      return closedFuture();
    }
    try {
      DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    List<io.tickwheel.core.store.TopicCount> out = new ArrayList<>();
    for (Map.Entry<String, long[]> e : (after == null ? byTopic : byTopic.tailMap(after, false)).entrySet()) {
      if (out.size() == limit) {
        break;
      }
      out.add(new io.tickwheel.core.store.TopicCount(e.getKey(), e.getValue()[0]));
    }
    return Future.succeededFuture(out);
  }

  @Override
  public synchronized Future<Long> topicCount(String topic) {
    if (closed) {
      return closedFuture();
    }
    long[] c = byTopic.get(topic);
    return Future.succeededFuture(c == null ? 0L : c[0]);
  }

  @Override
  public synchronized Future<Long> pausedCount() {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture(pausedCount);
  }

  @Override
  public synchronized Future<Long> timerCount() {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture((long) timers.size());
  }

  @Override
  public synchronized Future<List<Firing>> readFirings(long afterSeq, int limit) {
    if (closed) {
      return closedFuture();
    }
    List<Firing> out = new ArrayList<>(Math.min(limit, 1024));
    for (Firing f : log.tailMap(afterSeq, false).values()) {
      if (out.size() >= limit) {
        break;
      }
      out.add(f);
    }
    return Future.succeededFuture(out);
  }

  @Override
  public synchronized Future<Long> lastSeq() {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture(lastSeq);
  }

  @Override
  public synchronized Future<Long> trimFirings(Retention retention, long nowMs) {
    if (closed) {
      return closedFuture();
    }
    long removed = 0;
    long cutoff = retention.cutoff(nowMs);
    while (log.size() > 1
        && (log.size() > retention.maxCount() || log.firstEntry().getValue().firedAt() < cutoff)) {
      log.pollFirstEntry();
      removed++;
    }
    return Future.succeededFuture(removed);
  }

  @Override
  public synchronized Future<Void> close() {
    closed = true;
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Void> setTopicPaused(String topic, boolean paused) {
    java.util.Objects.requireNonNull(topic, "topic");
    if (closed) {
      return closedFuture();
    }
    if (paused) {
      pausedTopics.add(topic);
    } else {
      pausedTopics.remove(topic);
    }
    return Future.succeededFuture();
  }

  @Override
  public synchronized Future<Set<String>> pausedTopics() {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture(new HashSet<>(pausedTopics));
  }

  // ------------------------------------------------------------------ deliveries

  @Override
  public synchronized Future<Delivery> getDelivery(long seq) {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture(deliveries.get(seq));
  }

  @Override
  public synchronized Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    if (closed) {
      return closedFuture();
    }
    NavigableSet<Long> seqs = state == null ? deliveries.navigableKeySet() : deliveriesByState.get(state);
    List<Delivery> page = new ArrayList<>(Math.min(limit, 1024));
    Iterator<Long> it = seqs.tailSet(afterSeq, false).iterator();
    while (it.hasNext() && page.size() < limit) {
      page.add(deliveries.get(it.next()));
    }
    long next = it.hasNext() && !page.isEmpty() ? page.get(page.size() - 1).seq() : -1;
    return Future.succeededFuture(new DeliveryPage(page, next));
  }

  @Override
  public synchronized Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    if (closed) {
      return closedFuture();
    }
    Delivery old = deliveries.get(d.seq());
    if (old == null || (expected != null && old.state() != expected)) {
      return Future.succeededFuture(false);
    }
    putDelivery(d);
    return Future.succeededFuture(true);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    List<Delivery> snapshot = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return closedFuture();
      }
      for (Long seq : deliveriesByState.get(DeliveryState.PENDING)) {
        snapshot.add(deliveries.get(seq));
      }
    }
    return feed(snapshot, 0, batchSize, sink).map(v -> (long) snapshot.size());
  }

  @Override
  public synchronized Future<Long> trimDeliveries(Retention retention, long nowMs) {
    if (closed) {
      return closedFuture();
    }
    long cutoff = retention.cutoff(nowMs);
    NavigableSet<Long> succeeded = deliveriesByState.get(DeliveryState.SUCCEEDED);
    NavigableSet<Long> dead = deliveriesByState.get(DeliveryState.DEAD);
    long excess = succeeded.size() + dead.size() - retention.maxCount();
    // the finished ones oldest first, the two state sets merged (no copy of either)
    List<Delivery> gone = new ArrayList<>();
    Iterator<Long> a = succeeded.iterator();
    Iterator<Long> b = dead.iterator();
    Long x = a.hasNext() ? a.next() : null;
    Long y = b.hasNext() ? b.next() : null;
    while (x != null || y != null) {
      Long seq;
      if (y == null || (x != null && x < y)) {
        seq = x;
        x = a.hasNext() ? a.next() : null;
      } else {
        seq = y;
        y = b.hasNext() ? b.next() : null;
      }
      Delivery d = deliveries.get(seq);
      if (gone.size() < excess || d.updatedAt() < cutoff) {
        gone.add(d);
      }
    }
    for (Delivery d : gone) {
      deliveries.remove(d.seq());
      deliveriesByState.get(d.state()).remove(d.seq());
    }
    return Future.succeededFuture((long) gone.size());
  }

  @Override
  public synchronized Future<Long> countDeliveries(DeliveryState state) {
    if (closed) {
      return closedFuture();
    }
    return Future.succeededFuture((long) deliveriesByState.get(state).size());
  }

  private void putDelivery(Delivery d) {
    Delivery old = deliveries.put(d.seq(), d);
    if (old != null) {
      deliveriesByState.get(old.state()).remove(old.seq());
    }
    deliveriesByState.get(d.state()).add(d.seq());
  }

  @Override
  public synchronized Future<String> webhookSecret(String generatedIfAbsent) {
    java.util.Objects.requireNonNull(generatedIfAbsent, "generatedIfAbsent");
    if (closed) {
      return closedFuture();
    }
    if (webhookSecret == null) {
      webhookSecret = generatedIfAbsent;
    }
    return Future.succeededFuture(webhookSecret);
  }

  /** A timer that sorts exactly where the cursor points, to search the listing order with. */
  private static Timer probe(TimerCursor c) {
    return new Timer(c.id(), "probe", Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, null, 0, c.dueAt(), 0, 0);
  }

  private void store(Timer t) {
    Timer old = timers.put(t.id(), t);
    if (old != null) {
      byDue.remove(old);
      counted(old, -1);
    }
    byDue.add(t);
    counted(t, 1);
  }

  /** Counts {@code t} in ({@code d = 1}) or out ({@code -1}) of its topic's count and the paused count. */
  private void counted(Timer t, int d) {
    long[] c = byTopic.computeIfAbsent(t.topic(), k -> new long[1]);
    c[0] += d;
    if (c[0] <= 0) {
      byTopic.remove(t.topic());
    }
    if (t.paused()) {
      pausedCount += d;
    }
  }

  private static <T> Future<T> closedFuture() {
    return Future.failedFuture(new StoreClosedException("memory store is closed"));
  }
}
