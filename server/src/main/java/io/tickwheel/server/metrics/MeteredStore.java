package io.tickwheel.server.metrics;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.ComposedStore;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import java.util.List;
import java.util.Set;

/**
 * A {@link TimerStore} that times the calls of the one it wraps into {@link Metrics}
 * ({@code tickwheel_store_op_seconds{op=…}}, {@code op} the method's name). Every call is metered except
 * {@link #UNMETERED} ones (they stream or answer without work worth a series), which {@link ComposedStore} forwards
 * as they are. Same contract, same thread safety as the wrapped store.
 */
public final class MeteredStore extends ComposedStore implements io.tickwheel.core.store.DueIndex {

  /** The calls forwarded without a measurement. */
  static final Set<String> UNMETERED = Set.of("name", "close", "keepsTimersOnHeap", "loadAll", "lastSeq");

  private final Metrics metrics;
  /** The wrapped store, for its {@link io.tickwheel.core.store.DueIndex} when it has one. */
  private final TimerStore wrapped;

  public MeteredStore(TimerStore store, Metrics metrics) {
    super(ComposedStore.of(store));
    this.metrics = metrics;
    this.wrapped = store;
  }

  /** {@code f}, timed from {@code t0} (taken before the call: arguments are evaluated left to right). */
  private <T> Future<T> done(String op, long t0, Future<T> f) {
    if (f.isComplete()) {
      metrics.storeCall(op, System.nanoTime() - t0, f.failed());
      return f;
    }
    return f.andThen(ar -> metrics.storeCall(op, System.nanoTime() - t0, ar.failed()));
  }

  @Override
  public Future<Void> put(Timer t) {
    return done("put", System.nanoTime(), super.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return done("putAll", System.nanoTime(), super.putAll(timers));
  }

  @Override
  public Future<Void> createAll(List<Timer> timers) {
    return done("createAll", System.nanoTime(), super.createAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return done("update", System.nanoTime(), super.update(next, expectedGeneration));
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return done("updateAll", System.nanoTime(), super.updateAll(next, expectedGenerations));
  }

  @Override
  public Future<Timer> get(String id) {
    return done("get", System.nanoTime(), super.get(id));
  }

  @Override
  public Future<Boolean> remove(String id) {
    return done("remove", System.nanoTime(), super.remove(id));
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return done("list", System.nanoTime(), super.list(topic, after, limit));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return done("recordFirings", System.nanoTime(), super.recordFirings(requests));
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return done("readFirings", System.nanoTime(), super.readFirings(afterSeq, limit));
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return done("trimFirings", System.nanoTime(), super.trimFirings(retention, nowMs));
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return done("getDelivery", System.nanoTime(), super.getDelivery(seq));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return done("listDeliveries", System.nanoTime(), super.listDeliveries(state, afterSeq, limit));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    return done("updateDelivery", System.nanoTime(), super.updateDelivery(d));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    return done("updateDelivery", System.nanoTime(), super.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize,
      java.util.function.Function<List<Delivery>, Future<Void>> sink) {
    return done("loadPendingDeliveries", System.nanoTime(), super.loadPendingDeliveries(batchSize, sink));
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return done("trimDeliveries", System.nanoTime(), super.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return done("countDeliveries", System.nanoTime(), super.countDeliveries(state));
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return done("setTopicPaused", System.nanoTime(), super.setTopicPaused(topic, paused));
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return done("pausedTopics", System.nanoTime(), super.pausedTopics());
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return done("webhookSecret", System.nanoTime(), super.webhookSecret(generatedIfAbsent));
  }

  /** Whether the wrapped store is a {@link io.tickwheel.core.store.DueIndex} that answers. */
  @Override
  public boolean dueIndexAvailable() {
    return wrapped instanceof io.tickwheel.core.store.DueIndex d && d.dueIndexAvailable();
  }

  private io.tickwheel.core.store.DueIndex index() {
    if (!dueIndexAvailable()) {
      throw new io.tickwheel.core.store.StoreFaultException("the " + name() + " store has no due index", null, false);
    }
    return (io.tickwheel.core.store.DueIndex) wrapped;
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<io.tickwheel.core.store.TimerPage> dueBetween(long fromMs, long toMs,
      io.tickwheel.core.store.TimerCursor after, int limit) {
    try {
      return done("dueBetween", System.nanoTime(), index().dueBetween(fromMs, toMs, after, limit));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> timerCount() {
    try {
      return done("timerCount", System.nanoTime(), index().timerCount());
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    try {
      return done("topicCounts", System.nanoTime(), index().topicCounts(after, limit));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> topicCount(String topic) {
    try {
      return done("topicCount", System.nanoTime(), index().topicCount(topic));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> pausedCount() {
    try {
      return done("pausedCount", System.nanoTime(), index().pausedCount());
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.Set<String>> storedIds(java.util.List<String> ids) {
    try {
      return done("storedIds", System.nanoTime(), index().storedIds(ids));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.Set<String>> createAbsent(java.util.List<io.tickwheel.core.model.Timer> timers) {
    try {
      return done("createAbsent", System.nanoTime(), index().createAbsent(timers));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }
}
