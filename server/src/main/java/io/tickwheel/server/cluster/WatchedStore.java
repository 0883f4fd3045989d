package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.ComposedStore;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import java.util.List;

/**
 * A partition's fenced store as its scheduler uses it, watched by the lease keeper: a write the store refuses with
 * {@link StoreFencedException} reports {@code onFenced} (the keeper stops the partition at once; the failure still
 * reaches the caller, which answers it as a domain refusal). Every write of every part is watched, so a partition
 * that only takes timer writes or settles deliveries stops as soon as one is fenced; reads are never fenced and
 * {@link ComposedStore} forwards them as they are. Same contract and thread safety as the wrapped store; the callback
 * runs where the store's futures complete (the owner context).
 */
final class WatchedStore extends ComposedStore implements io.tickwheel.core.store.DueIndex {

  /** The wrapped store, for its {@link io.tickwheel.core.store.DueIndex} when it has one. */
  private final TimerStore wrapped;

  private final Runnable onFenced;

  WatchedStore(TimerStore store, Runnable onFenced) {
    super(ComposedStore.of(store));
    this.wrapped = store;
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
  public Future<Void> put(Timer t) {
    return watch(super.put(t));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return watch(super.putAll(timers));
  }

  @Override
  public Future<Void> createAll(List<Timer> timers) {
    return watch(super.createAll(timers));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return watch(super.update(next, expectedGeneration));
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return watch(super.updateAll(next, expectedGenerations));
  }

  @Override
  public Future<Boolean> remove(String id) {
    return watch(super.remove(id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return watch(super.recordFirings(requests));
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return watch(super.trimFirings(retention, nowMs));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d) {
    return watch(super.updateDelivery(d));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    return watch(super.updateDelivery(d, expected));
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return watch(super.trimDeliveries(retention, nowMs));
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return watch(super.setTopicPaused(topic, paused));
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
      return watch(index().dueBetween(fromMs, toMs, after, limit));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> timerCount() {
    try {
      return watch(index().timerCount());
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    try {
      return watch(index().topicCounts(after, limit));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> topicCount(String topic) {
    try {
      return watch(index().topicCount(topic));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<Long> pausedCount() {
    try {
      return watch(index().pausedCount());
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.Set<String>> storedIds(java.util.List<String> ids) {
    try {
      return watch(index().storedIds(ids));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }

  /** The wrapped store's; a failed future when it has no due index ({@link #dueIndexAvailable()}). */
  @Override
  public Future<java.util.Set<String>> createAbsent(java.util.List<io.tickwheel.core.model.Timer> timers) {
    try {
      return watch(index().createAbsent(timers));
    } catch (io.tickwheel.core.store.StoreFaultException e) {
      return Future.failedFuture(e);
    }
  }
}
