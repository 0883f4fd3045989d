package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
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
import java.util.function.Function;

/**
 * A partition's fenced store as its scheduler uses it, watched by the lease keeper: a call the store refuses with
 * {@link StoreFencedException} reports {@code onFenced} (the keeper stops the partition at once; the failure still
 * reaches the caller, which answers it as a domain refusal). Same contract and thread safety as the wrapped store;
 * the callback runs where the store's futures complete (the owner context).
 */
final class WatchedStore implements TimerStore {

  private final TimerStore store;
  private final Runnable onFenced;

  WatchedStore(TimerStore store, Runnable onFenced) {
    this.store = store;
    this.onFenced = onFenced;
  }

  private <T> Future<T> watch(Future<T> f) {
    return f.onFailure(e -> {
      if (e instanceof StoreFencedException) {
        onFenced.run();
      }
    });
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
    return watch(store.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return watch(store.putAll(timers));
  }

  @Override
  public Future<Void> createAll(List<Timer> timers) {
    return watch(store.createAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return watch(store.update(next, expectedGeneration));
  }

  @Override
  public Future<Timer> get(String id) {
    return store.get(id);
  }

  @Override
  public Future<Boolean> remove(String id) {
    return watch(store.remove(id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return watch(store.recordFirings(requests));
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return store.loadAll(batchSize, sink);
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return store.list(topic, after, limit);
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return store.readFirings(afterSeq, limit);
  }

  @Override
  public Future<Long> lastSeq() {
    return store.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return watch(store.trimFirings(retention, nowMs));
  }

  @Override
  public Future<Void> close() {
    return store.close();
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return watch(store.setTopicPaused(topic, paused));
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return store.pausedTopics();
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return watch(store.updateAll(next, expectedGenerations));
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return store.webhookSecret(generatedIfAbsent);
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return store.getDelivery(seq);
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return store.listDeliveries(state, afterSeq, limit);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    return watch(store.updateDelivery(d));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    return watch(store.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    return store.loadPendingDeliveries(batchSize, sink);
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return watch(store.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return store.countDeliveries(state);
  }
}
