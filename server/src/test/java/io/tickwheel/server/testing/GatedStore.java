package io.tickwheel.server.testing;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.Retention;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link MemoryTimerStore} whose writes a test can hold (until {@link #release()}) or fail (as if the backend
 * were down), and whose {@code recordFirings} calls are counted. Owner-thread use only.
 */
public final class GatedStore implements TimerStore, io.tickwheel.core.store.TimerExport,
    io.tickwheel.core.store.DueIndex {

  private final MemoryTimerStore mem = new MemoryTimerStore();
  private final ArrayDeque<Runnable> held = new ArrayDeque<>();
  public final AtomicInteger recordCalls = new AtomicInteger();
  public final AtomicInteger largestRecordBatch = new AtomicInteger();
  /** Calls of createAll (and createAbsent) and updateAll, and the timers they carried. */
  public final AtomicInteger createAllCalls = new AtomicInteger();
  public final AtomicInteger createAllTimers = new AtomicInteger();
  public final AtomicInteger updateAllCalls = new AtomicInteger();
  public final AtomicInteger updateAllTimers = new AtomicInteger();
  /** Timers the export has handed out so far (read from the store by {@link #exportAll}). */
  public final java.util.concurrent.atomic.AtomicLong exported = new java.util.concurrent.atomic.AtomicLong();
  /** The context of the last call (the server's owner context, once it called). */
  public volatile io.vertx.core.Context context;
  private boolean holdFirings;
  private boolean holdPuts;
  private boolean holdDeliveryUpdates;
  private int failFirings;
  private int applyThenFailFirings;
  private int applyThenFailWrites;
  private boolean down;
  private io.vertx.core.Promise<Void> loadGate;

  public MemoryTimerStore memory() {
    return mem;
  }

  /** Holds every following recordFirings until {@link #release()}. */
  public void holdFirings(boolean h) {
    holdFirings = h;
  }

  /** Holds every following put until {@link #release()}. */
  public void holdPuts(boolean h) {
    holdPuts = h;
  }

  /**
   * Holds every following updateDelivery until {@link #release()} (as a remote store's writes are in flight while
   * other calls read: concurrent API calls then all read the state before any of their writes).
   */
  public void holdDeliveryUpdates(boolean h) {
    holdDeliveryUpdates = h;
  }

  /** Fails the next {@code n} recordFirings with {@link StoreUnavailableException}. */
  public void failFirings(int n) {
    failFirings = n;
  }

  /**
   * Applies the next {@code n} recordFirings and then fails them with {@link StoreUnavailableException},
   * {@code mayHaveApplied} true (an answer lost after the write, a replica acknowledgement that timed out).
   */
  public void applyThenFailFirings(int n) {
    applyThenFailFirings = n;
  }

  /**
   * Applies the next {@code n} writes of createAll (and createAbsent), put, remove, update and updateAll, then fails them with
   * {@link StoreUnavailableException}, {@code mayHaveApplied} true, a little later (on the next event-loop turn, as a
   * lost answer would).
   */
  public void applyThenFailWrites(int n) {
    applyThenFailWrites = n;
  }

  private <T> Future<T> maybeLost(java.util.function.Supplier<Future<T>> write) {
    if (applyThenFailWrites <= 0) {
      return null;
    }
    applyThenFailWrites--;
    Promise<T> p = Promise.promise();
    write.get().onComplete(ar -> io.vertx.core.Vertx.currentContext().runOnContext(v -> p.fail(
        new StoreUnavailableException("write applied, its answer lost (test)", null, true))));
    return p.future();
  }

  private boolean holdDueAnswers;
  private final ArrayDeque<Runnable> heldDueAnswers = new ArrayDeque<>();
  /** Calls of dueBetween. */
  public final AtomicInteger dueReads = new AtomicInteger();

  /**
   * Holds the answers of every following {@code dueBetween}: each is read at once (the store's state then) and
   * answered at {@link #releaseDueAnswers()} (a page read in flight while writes go on).
   */
  public void holdDueAnswers(boolean h) {
    holdDueAnswers = h;
  }

  /** Answers the held {@code dueBetween} calls, in order; returns how many. */
  public int releaseDueAnswers() {
    int n = 0;
    while (!heldDueAnswers.isEmpty()) {
      heldDueAnswers.poll().run();
      n++;
    }
    return n;
  }

  private int dueLimit = Integer.MAX_VALUE;

  /** Answers every following {@code dueBetween} with pages of at most {@code max} timers, whatever its limit. */
  public void capDuePages(int max) {
    dueLimit = max;
  }

  @Override
  public Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int asked) {
    int limit = Math.min(asked, dueLimit);
    dueReads.incrementAndGet();
    if (loadGate != null && !loadGate.future().isComplete()) {
      return loadGate.future().compose(v -> mem.dueBetween(fromMs, toMs, after, limit));
    }
    Future<TimerPage> read = gate(false, () -> mem.dueBetween(fromMs, toMs, after, limit));
    if (!holdDueAnswers) {
      return read;
    }
    Promise<TimerPage> p = Promise.promise();
    heldDueAnswers.add(() -> read.onComplete(p));
    return p.future();
  }

  @Override
  public Future<java.util.Set<String>> storedIds(List<String> ids) {
    return gate(false, () -> mem.storedIds(ids));
  }

  /** A create write as {@link #createAll}: counted, gated and lost alike. */
  @Override
  public Future<java.util.Set<String>> createAbsent(List<Timer> timers) {
    createAllCalls.incrementAndGet();
    createAllTimers.addAndGet(timers.size());
    Future<java.util.Set<String>> lost = maybeLost(() -> mem.createAbsent(timers));
    if (lost != null) {
      return lost;
    }
    return gate(holdPuts, () -> mem.createAbsent(timers));
  }

  @Override
  public Future<Long> timerCount() {
    return gate(false, mem::timerCount);
  }

  @Override
  public Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    return gate(false, () -> mem.topicCounts(after, limit));
  }

  @Override
  public Future<Long> topicCount(String topic) {
    return gate(false, () -> mem.topicCount(topic));
  }

  @Override
  public Future<Long> pausedCount() {
    return gate(false, mem::pausedCount);
  }

  /** Holds {@code loadAll} (recovery) until {@link #releaseLoad()}. */
  public void holdLoad() {
    loadGate = Promise.promise();
  }

  public void releaseLoad() {
    loadGate.complete();
  }

  /** Fails every call while down. */
  public void down(boolean d) {
    down = d;
  }

  /** Runs the held calls, in order. */
  public void release() {
    while (!held.isEmpty()) {
      held.poll().run();
    }
  }

  /** Lets the held calls through newest first (a store answering out of call order); each applies when let through. */
  public void releaseNewestFirst() {
    while (!held.isEmpty()) {
      held.pollLast().run();
    }
  }

  public int heldCount() {
    return held.size();
  }

  private <T> Future<T> gate(boolean hold, java.util.function.Supplier<Future<T>> call) {
    context = io.vertx.core.Vertx.currentContext();
    if (down) {
      return Future.failedFuture(new StoreUnavailableException("store is down (test)"));
    }
    if (!hold) {
      return call.get();
    }
    Promise<T> p = Promise.promise();
    held.add(() -> call.get().onComplete(p));
    return p.future();
  }

  @Override
  public String name() {
    return "gated-memory";
  }

  @Override
  public Future<Void> put(Timer t) {
    Future<Void> lost = maybeLost(() -> mem.put(t));
    if (lost != null) {
      return lost;
    }
    return gate(holdPuts, () -> mem.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return gate(holdPuts, () -> mem.putAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    Future<Timer> lost = maybeLost(() -> mem.update(next, expectedGeneration));
    if (lost != null) {
      return lost;
    }
    return gate(false, () -> mem.update(next, expectedGeneration));
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    updateAllCalls.incrementAndGet();
    updateAllTimers.addAndGet(next.size());
    Future<List<Timer>> lost = maybeLost(() -> mem.updateAll(next, expectedGenerations));
    if (lost != null) {
      return lost;
    }
    return gate(false, () -> mem.updateAll(next, expectedGenerations));
  }

  /** Counted; held with the puts. */
  @Override
  public Future<Void> createAll(List<Timer> timers) {
    createAllCalls.incrementAndGet();
    createAllTimers.addAndGet(timers.size());
    Future<Void> lost = maybeLost(() -> mem.createAll(timers));
    if (lost != null) {
      return lost;
    }
    return gate(holdPuts, () -> mem.createAll(timers));
  }

  @Override
  public Future<Timer> get(String id) {
    return gate(false, () -> mem.get(id));
  }

  @Override
  public Future<Boolean> remove(String id) {
    Future<Boolean> lost = maybeLost(() -> mem.remove(id));
    if (lost != null) {
      return lost;
    }
    return gate(false, () -> mem.remove(id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    recordCalls.incrementAndGet();
    largestRecordBatch.accumulateAndGet(requests.size(), Math::max);
    if (failFirings > 0) {
      failFirings--;
      return Future.failedFuture(new StoreUnavailableException("recordFirings failed (test)"));
    }
    if (applyThenFailFirings > 0) {
      applyThenFailFirings--;
      return mem.recordFirings(requests).transform(ar -> Future.failedFuture(
          new StoreUnavailableException("recordFirings applied, its answer lost (test)", null, true)));
    }
    return gate(holdFirings, () -> mem.recordFirings(requests));
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (loadGate != null) {
      return loadGate.future().compose(v -> mem.loadAll(batchSize, sink));
    }
    return mem.loadAll(batchSize, sink);
  }

  @Override
  public Future<Long> exportAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return mem.exportAll(batchSize, batch -> {
      exported.addAndGet(batch.size());
      return sink.apply(batch);
    });
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return gate(false, () -> mem.list(topic, after, limit));
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return mem.readFirings(afterSeq, limit);
  }

  @Override
  public Future<Long> lastSeq() {
    return mem.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return mem.trimFirings(retention, nowMs);
  }

  @Override
  public Future<Void> close() {
    return mem.close();
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return gate(false, () -> mem.setTopicPaused(topic, paused));
  }

  @Override
  public Future<java.util.Set<String>> pausedTopics() {
    return gate(false, mem::pausedTopics);
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return gate(false, () -> mem.getDelivery(seq));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return gate(false, () -> mem.listDeliveries(state, afterSeq, limit));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, io.tickwheel.core.delivery.DeliveryState expected) {
    return gate(holdDeliveryUpdates, () -> mem.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, java.util.function.Function<java.util.List<Delivery>, Future<Void>> sink) {
    return gate(false, () -> mem.loadPendingDeliveries(batchSize, sink));
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return gate(false, () -> mem.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return gate(false, () -> mem.countDeliveries(state));
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return gate(false, () -> mem.webhookSecret(generatedIfAbsent));
  }
}
