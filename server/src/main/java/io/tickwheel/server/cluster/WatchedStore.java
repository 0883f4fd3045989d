package io.tickwheel.server.cluster;

import io.tickwheel.core.cluster.StoreFencedException;
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
import java.util.function.Consumer;

/**
 * A partition's fenced store as its scheduler uses it, watched by the cluster runtime: the first call the store refuses
 * with {@link StoreFencedException} reports {@code onFenced} (the runtime stops the partition at once; the failure
 * still reaches the caller, which answers it as a domain refusal), and every recorded firing batch reports its
 * applied firings, in seq order, to {@code onRecorded} (the runtime broadcasts them:
 * {@link io.tickwheel.server.push.FiringBroadcast}). Same contract and
 * thread safety as the wrapped store; the callbacks run where the store's futures complete (the owner context).
 */
final class WatchedStore implements TimerStore {

  private final TimerStore store;
  private final Runnable onFenced;
  private final Consumer<List<Firing>> onRecorded;

  WatchedStore(TimerStore store, Runnable onFenced, Consumer<List<Firing>> onRecorded) {
    this.store = store;
    this.onFenced = onFenced;
    this.onRecorded = onRecorded;
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
    return watch(store.recordFirings(requests)).onSuccess(results -> {
      List<Firing> applied = new java.util.ArrayList<>(results.size());
      for (FiringResult r : results) {
        Firing f = r.firing();
        if (f != null) {
          applied.add(f);
        }
      }
      if (!applied.isEmpty()) {
        applied.sort(java.util.Comparator.comparingLong(Firing::seq));
        onRecorded.accept(applied);
      }
    });
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
