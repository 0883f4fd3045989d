package io.tickwheel.store.redis;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link TimerStore} on Redis (standalone or Cluster). API placeholder: the implementation follows in the next
 * commit; every call fails until then.
 */
public final class RedisTimerStore implements TimerStore {

  private RedisTimerStore() {}

  /** Connects to Redis as {@code options} say and returns the open store. */
  public static Future<RedisTimerStore> open(Vertx vertx, RedisStoreOptions options) {
    return Future.failedFuture(new UnsupportedOperationException("RedisTimerStore is not implemented yet"));
  }

  @Override public String name() { return "redis"; }
  @Override public Future<Void> put(Timer t) { return todo(); }
  @Override public Future<Void> putAll(List<Timer> timers) { return todo(); }
  @Override public Future<Boolean> update(Timer next, long expectedGeneration) { return todo(); }
  @Override public Future<Timer> get(String id) { return todo(); }
  @Override public Future<Boolean> remove(String id) { return todo(); }
  @Override public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) { return todo(); }
  @Override public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) { return todo(); }
  @Override public Future<TimerPage> list(String topic, TimerCursor after, int limit) { return todo(); }
  @Override public Future<List<Firing>> readFirings(long afterSeq, int limit) { return todo(); }
  @Override public Future<Long> lastSeq() { return todo(); }
  @Override public Future<Long> trimFirings(Retention retention, long nowMs) { return todo(); }
  @Override public Future<Void> close() { return Future.succeededFuture(); }

  private static <T> Future<T> todo() {
    return Future.failedFuture(new UnsupportedOperationException("RedisTimerStore is not implemented yet"));
  }
}
