package io.tickwheel.server.scheduler;

import io.tickwheel.core.store.FiringLog;
import io.tickwheel.core.store.Retention;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Keeps the firing log to its {@link Retention}: once {@link #start}ed, trims it every {@code intervalMs}, the first
 * time after a random part of the interval (a cluster node starts the schedulers of the partitions it takes at one
 * moment; their trims then spread over the interval instead of reaching the store together); one trim at a time (a
 * tick that finds one running skips). A failed trim is logged and tried again at the next tick.
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class FiringLogTrim {

  private static final System.Logger LOG = System.getLogger(FiringLogTrim.class.getName());

  private final Vertx vertx;
  private final FiringLog store;
  private final Retention retention;
  private final LongSupplier clock;
  private long timerId = -1;
  private boolean trimming;

  FiringLogTrim(Vertx vertx, FiringLog store, Retention retention, LongSupplier clock) {
    this.vertx = vertx;
    this.store = store;
    this.retention = retention;
    this.clock = clock;
  }

  /** Trims every {@code intervalMs}, ms, the first time within {@code intervalMs} from now. */
  void start(long intervalMs) {
    long first = 1 + ThreadLocalRandom.current().nextLong(intervalMs);
    timerId = vertx.setPeriodic(first, intervalMs, id -> trimNow());
  }

  /** No more trims (one running completes). */
  void stop() {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
      timerId = -1;
    }
  }

  /**
   * Trims now; skipped while a trim is running.
   *
   * @return how many firings were trimmed (0 when skipped)
   */
  Future<Long> trimNow() {
    if (trimming) {
      return Future.succeededFuture(0L);
    }
    trimming = true;
    return store.trimFirings(retention, clock.getAsLong()).andThen(ar -> {
      trimming = false;
      if (ar.failed()) {
        LOG.log(System.Logger.Level.WARNING, "trimming the firing log failed: " + ar.cause());
      }
    });
  }
}
