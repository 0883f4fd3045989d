package io.tickwheel.server.scheduler;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.metrics.Metrics;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.function.LongSupplier;

/** Schedulers that do not drive themselves (tests in other packages turn them with {@code drain}). */
public final class ManualSchedulers {

  private ManualSchedulers() {}

  public static Scheduler manual(Vertx vertx, Context owner, TimerStore store, LongSupplier clock, SchedulerOptions opts,
      Metrics metrics) {
    return new Scheduler(vertx, owner, store, clock, opts, metrics, false);
  }
}
