package io.tickwheel.store.rocksdb;

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
 * The embedded RocksDB timer store. API skeleton: the implementation lands in the next commits.
 */
public final class RocksDbTimerStore implements TimerStore {

  private RocksDbTimerStore() {}

  /**
   * Opens (creating if missing) the store in {@code options.getDataDir()} off the event loop.
   *
   * @return the open store, or a failed future with {@link StoreOpenException}
   */
  public static Future<RocksDbTimerStore> open(Vertx vertx, RocksDbStoreOptions options) {
    return Future.failedFuture(new StoreOpenException("RocksDbTimerStore is not implemented yet"));
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  private static <T> Future<T> todo() {
    return Future.failedFuture(new UnsupportedOperationException("not implemented yet"));
  }

  @Override
  public Future<Void> put(Timer t) {
    return todo();
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return todo();
  }

  @Override
  public Future<Boolean> update(Timer next, long expectedGeneration) {
    return todo();
  }

  @Override
  public Future<Timer> get(String id) {
    return todo();
  }

  @Override
  public Future<Boolean> remove(String id) {
    return todo();
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return todo();
  }

  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    return todo();
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    return todo();
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    return todo();
  }

  @Override
  public Future<Long> lastSeq() {
    return todo();
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    return todo();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
