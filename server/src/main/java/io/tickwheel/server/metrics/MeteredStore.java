package io.tickwheel.server.metrics;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.Retention;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link TimerStore} that times every call of the one it wraps into {@link Metrics}
 * ({@code tickwheel_store_op_seconds{op=…}}). Same contract, same thread safety as the wrapped store.
 */
public final class MeteredStore implements TimerStore {

  private final TimerStore store;
  private final Metrics metrics;

  public MeteredStore(TimerStore store, Metrics metrics) {
    this.store = store;
    this.metrics = metrics;
  }

  @Override
  public String name() {
    return store.name();
  }

  @Override
  public boolean keepsTimersOnHeap() {
    return store.keepsTimersOnHeap();
  }

  @Override
  public Future<Void> put(Timer t) {
    long t0 = System.nanoTime();
    return done("put", t0, store.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    long t0 = System.nanoTime();
    return done("putAll", t0, store.putAll(timers));
  }

  @Override
  public Future<Void> createAll(List<Timer> timers) {
    long t0 = System.nanoTime();
    return done("createAll", t0, store.createAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    long t0 = System.nanoTime();
    return done("update", t0, store.update(next, expectedGeneration));
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    long t0 = System.nanoTime();
    return done("updateAll", t0, store.updateAll(next, expectedGenerations));
  }

  @Override
  public Future<Timer> get(String id) {
    long t0 = System.nanoTime();
    return done("get", t0, store.get(id));
  }

  @Override
  public Future<Boolean> remove(String id) {
    long t0 = System.nanoTime();
    return done("remove", t0, store.remove(id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    long t0 = System.nanoTime();
    return done("recordFirings", t0, store.recordFirings(requests));
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return store.loadAll(batchSize, sink);
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    long t0 = System.nanoTime();
    return done("list", t0, store.list(topic, after, limit));
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    long t0 = System.nanoTime();
    return done("readFirings", t0, store.readFirings(afterSeq, limit));
  }

  @Override
  public Future<Long> lastSeq() {
    return store.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    long t0 = System.nanoTime();
    return done("trimFirings", t0, store.trimFirings(retention, nowMs));
  }

  @Override
  public Future<Void> close() {
    return store.close();
  }

  private <T> Future<T> done(String op, long t0, Future<T> f) {
    if (f.isComplete()) {
      metrics.storeCall(op, System.nanoTime() - t0, f.failed());
      return f;
    }
    return f.andThen(ar -> metrics.storeCall(op, System.nanoTime() - t0, ar.failed()));
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    long t0 = System.nanoTime();
    return done("setTopicPaused", t0, store.setTopicPaused(topic, paused));
  }

  @Override
  public Future<java.util.Set<String>> pausedTopics() {
    long t0 = System.nanoTime();
    return done("pausedTopics", t0, store.pausedTopics());
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    long t0 = System.nanoTime();
    return done("getDelivery", t0, store.getDelivery(seq));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    long t0 = System.nanoTime();
    return done("listDeliveries", t0, store.listDeliveries(state, afterSeq, limit));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    long t0 = System.nanoTime();
    return done("updateDelivery", t0, store.updateDelivery(d));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    long t0 = System.nanoTime();
    return done("updateDelivery", t0, store.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, java.util.function.Function<java.util.List<Delivery>, Future<Void>> sink) {
    long t0 = System.nanoTime();
    return done("loadPendingDeliveries", t0, store.loadPendingDeliveries(batchSize, sink));
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    long t0 = System.nanoTime();
    return done("trimDeliveries", t0, store.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    long t0 = System.nanoTime();
    return done("countDeliveries", t0, store.countDeliveries(state));
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    long t0 = System.nanoTime();
    return done("webhookSecret", t0, store.webhookSecret(generatedIfAbsent));
  }
}
