package io.tickwheel.core.store;

import io.tickwheel.core.model.Timer;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Function;

/**
 * The export read of a store: every stored timer, streamed from one snapshot, for {@code GET /v1/export}. A store SPI
 * part beside those of {@link TimerStore}, but not one of them: the memory, RocksDB and Redis stores (and their cluster
 * partition stores and readers) implement it, decorators need not (the server exports from the store it opened, not
 * through its metered view). Its contract suite is {@code TimerExportContract} in core's test-jar, run against each of
 * those stores.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Streamed, bounded.</b> Timers (with payload) go to {@code sink} in batches of at most {@code batchSize};
 *       the next batch is read only after the future {@code sink} returned for the previous one succeeded. Besides the
 *       batch handed out, the store holds no more for the export than its snapshot handle (RocksDB, Redis: nothing per
 *       timer; the memory store, whose timers are all on the heap anyway: one reference per timer).</li>
 *   <li><b>Snapshot.</b> What each store promises, stated by its implementation: RocksDB and memory read one
 *       point-in-time snapshot (a timer written during the export is seen as it was when the export began, or not at
 *       all if it did not exist); Redis reads pages, each atomic, in {@code (nextDueAt, id)} order, so a timer neither
 *       written nor fired during the export is streamed exactly once, and one written meanwhile as described there.
 *       In every store each timer streamed is one whole stored version of it.</li>
 *   <li><b>Order and context.</b> Batches come in a store-defined order; {@code sink} is called on the caller's
 *       context (or a context of the store's Vert.x when called from elsewhere), the returned future completes there.
 *       A failed sink future ends the export with that failure and releases the snapshot; so does closing the
 *       store.</li>
 * </ul>
 * Thread safe.
 */
public interface TimerExport {

  /**
   * Streams every stored timer of one snapshot to {@code sink}.
   *
   * @param batchSize the largest batch, {@code >= 1}
   * @return how many timers were streamed; failed with the sink's failure, or a {@link StoreException}
   */
  Future<Long> exportAll(int batchSize, Function<List<Timer>, Future<Void>> sink);
}
