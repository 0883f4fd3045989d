package io.tickwheel.server.cluster;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;

/**
 * Builds the scheduler that serves a partition this node just took (the node's wiring: metered store, options,
 * firing sink, delivery lane), whoever hands it out: the {@link LeaseKeeper} in a cluster, {@link SoleOwner} on a
 * single node. Called on the owner context; the owner then {@link #recover}s it, and (a cluster) stops it when the
 * partition is handed over, lost or fenced.
 */
@FunctionalInterface
public interface PartitionFactory {

  /**
   * @param partition the partition
   * @param store     its store: the single node's, or the partition's fenced store for this lease (watched for fencing)
   * @return a new scheduler over {@code store}, not yet recovered
   */
  Scheduler open(int partition, TimerStore store);

  /**
   * Loads what {@code scheduler} serves (its timers, and whatever the wiring keeps beside them) before it serves;
   * a failure means the partition is not served. Default: {@link Scheduler#recover()}.
   */
  default Future<?> recover(int partition, Scheduler scheduler) {
    return scheduler.recover();
  }

  /** Called once the scheduler of {@code partition} recovered and serves; default nothing. */
  default void recovered(int partition, Scheduler scheduler) {}

  /**
   * Called when the scheduler of {@code partition} has stopped firing and before its store closes (and, in a cluster,
   * before its lease is released): completes once what the wiring still writes to the store for it has ended (the
   * outcomes of callback attempts in flight), so the next owner reads them rather than repeating the attempts. Must
   * complete in bounded time; a failure is ignored. Default: at once.
   */
  default Future<?> settle(int partition, Scheduler scheduler) {
    return Future.succeededFuture();
  }

  /** Called after the scheduler of {@code partition} stopped (it serves nothing more); default nothing. */
  default void closed(int partition, Scheduler scheduler) {}
}
