package io.tickwheel.core.store;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where accepted timers and the firing log are kept durably: the store a server opens, made of its parts,
 * {@link TimerTable} (timers), {@link FiringLog} (settling due timers into the firing log), {@link DeliveryTable}
 * (callback deliveries) and {@link StoreSettings} (topic pauses, the webhook secret). Cluster coordination is not a
 * store part: it is {@code core.coordination.ClusterCoordinator}, which hands out a fenced store per partition.
 * Implemented by the in-memory, RocksDB and Redis stores; every implementation passes each part's contract suite
 * (run together by {@code TimerStoreContract} in core's test-jar). A component that needs one part takes that part;
 * a decorator of some parts is assembled with the others by {@link ComposedStore}.
 *
 * <p>The parts of one store share one dataset: a firing settles a timer and creates its delivery in one write.
 *
 * <h2>Contract (of every part)</h2>
 * <ul>
 *   <li><b>Asynchronous, never blocking the caller.</b> Every method returns at once; blocking work
 *       (JNI, disk) runs on the store's own threads, network I/O on the async client.</li>
 *   <li><b>Context.</b> When called on a Vert.x context (the server's event loop), the returned future
 *       completes on that same context.</li>
 *   <li><b>Durability.</b> A successful write future means the write is durable as far as the store's
 *       configuration promises (RocksDB: WAL written, fsynced with {@code --fsync}; Redis: as its AOF settings).
 *       A failed write may or may not have been applied: {@link StoreException#mayHaveApplied()} says which.</li>
 *   <li><b>Atomicity.</b> Each write call is atomic: all of it or nothing ({@link TimerTable#putAll} included); each
 *       {@link FiringRequest} of {@link FiringLog#recordFirings} is atomic on its own (firing appended and timer advanced
 *       or removed together).</li>
 *   <li><b>Order.</b> Calls made from one thread are applied in the order they were made.</li>
 *   <li><b>Sequence.</b> See {@link FiringLog}.</li>
 *   <li><b>Failures.</b> A failed future holds a {@link StoreException}: {@link StoreUnavailableException} when
 *       the backend cannot be used now (unreachable, connection lost, timeout, full queue, any I/O failure; the
 *       server answers 503), {@link StoreClosedException} after {@link #close()}, {@link StoreFaultException} when
 *       the store answered but something is wrong (corrupt record, script error). Only arguments that break a
 *       method's stated preconditions fail otherwise ({@link IllegalArgumentException},
 *       {@link NullPointerException}), as does a {@link TimerTable#loadAll} sink's own failure, which is passed on.</li>
 *   <li><b>Keys.</b> Everything about one timer is keyed by its id, so a partitioned store can route every call
 *       about one timer to one partition.</li>
 * </ul>
 * Implementations are thread safe.
 */
public interface TimerStore extends TimerTable, FiringLog, DeliveryTable, StoreSettings {

  /** A short name for logs and metrics: {@code memory}, {@code rocksdb}, {@code redis}. */
  String name();

  /** Flushes and releases everything; the store is unusable afterwards. Idempotent. */
  Future<Void> close();

  /**
   * {@inheritDoc}
   *
   * <p>The default implementation fails with {@link StoreFaultException}: a store without a place for it cannot
   * serve callbacks. The memory, RocksDB and Redis stores implement it.
   */
  @Override
  default Future<String> webhookSecret(String generatedIfAbsent) {
    return Future.failedFuture(new StoreFaultException("the " + name() + " store keeps no webhook secret", null,
        false));
  }

  /**
   * {@link TimerTable#checkUpdateAll}, for implementations.
   *
   * @throws IllegalArgumentException naming the first broken precondition
   */
  static void checkUpdateAll(List<Timer> next, long[] expectedGenerations) {
    TimerTable.checkUpdateAll(next, expectedGenerations);
  }
}
