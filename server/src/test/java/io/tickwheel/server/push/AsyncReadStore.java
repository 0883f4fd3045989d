package io.tickwheel.server.push;

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
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.function.Function;

/**
 * A store whose {@code readFirings} completes a few event-loop turns later, as the RocksDB and Redis stores do
 * (their reads run on another thread or the network): live firings can then be published while a replay read is
 * in flight. Reads see the log as it was when they were issued. Everything else goes straight to the delegate.
 */
final class AsyncReadStore implements TimerStore {

  private static final int TURNS = 3;

  private final TimerStore delegate;
  private final Context context;
  private volatile Runnable afterNextRead;
  private volatile Throwable failNextRead;

  AsyncReadStore(TimerStore delegate, Context context) {
    this.delegate = delegate;
    this.context = context;
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    Promise<List<Firing>> p = Promise.promise();
    Throwable failure = failNextRead;
    if (failure != null) {
      failNextRead = null;
      later(TURNS, () -> p.fail(failure));
      return p.future();
    }
    delegate.readFirings(afterSeq, limit).onComplete(ar -> later(TURNS, () -> p.handle(ar)));
    Runnable hook = afterNextRead;
    if (hook != null) {
      afterNextRead = null;
      hook.run();
    }
    return p.future();
  }

  /** Makes the next read fail with {@code failure}. */
  void failNextRead(Throwable failure) {
    failNextRead = failure;
  }

  /** Runs {@code hook} (once, on the context) right after the next read took its snapshot of the log, while it is in flight. */
  void afterNextRead(Runnable hook) {
    afterNextRead = hook;
  }

  private void later(int turns, Runnable r) {
    if (turns == 0) {
      r.run();
    } else {
      context.runOnContext(v -> later(turns - 1, r));
    }
  }

  @Override
  public String name() {
    return "async-read(" + delegate.name() + ")";
  }

  @Override
  public Future<Void> put(Timer t) {
    return delegate.put(t);
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return delegate.putAll(timers);
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    return delegate.update(next, expectedGeneration);
  }

  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    return delegate.updateAll(next, expectedGenerations);
  }

  @Override
  public Future<Timer> get(String id) {
    return delegate.get(id);
  }

  @Override
  public Future<Boolean> remove(String id) {
    return delegate.remove(id);
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return delegate.recordFirings(requests);
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return delegate.loadAll(batchSize, sink);
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return delegate.list(topic, after, limit);
  }

  @Override
  public Future<Long> lastSeq() {
    return delegate.lastSeq();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return delegate.trimFirings(retention, nowMs);
  }

  @Override
  public Future<Void> close() {
    return delegate.close();
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    return delegate.setTopicPaused(topic, paused);
  }

  @Override
  public Future<java.util.Set<String>> pausedTopics() {
    return delegate.pausedTopics();
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return delegate.getDelivery(seq);
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    return delegate.listDeliveries(state, afterSeq, limit);
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, io.tickwheel.core.delivery.DeliveryState expected) {
    return delegate.updateDelivery(d, expected);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, java.util.function.Function<java.util.List<Delivery>, Future<Void>> sink) {
    return delegate.loadPendingDeliveries(batchSize, sink);
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    return delegate.trimDeliveries(retention, nowMs);
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return delegate.countDeliveries(state);
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    return delegate.webhookSecret(generatedIfAbsent);
  }
}
