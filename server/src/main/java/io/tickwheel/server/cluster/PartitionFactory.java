package io.tickwheel.server.cluster;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Scheduler;

/**
 * Builds the scheduler that serves a partition this node just acquired (the server's wiring: metered store, options,
 * firing hub). Called on the lease keeper's context; the keeper then recovers it, and stops it when the partition is
 * handed over, lost or fenced.
 */
@FunctionalInterface
public interface PartitionFactory {

  /**
   * @param partition the partition
   * @param store     its fenced store for this lease (already watched for fencing and recorded firings)
   * @return a new scheduler over {@code store}, not yet recovered
   */
  Scheduler open(int partition, TimerStore store);

  /** Called once the scheduler of {@code partition} recovered and serves; default nothing. */
  default void recovered(int partition, Scheduler scheduler) {}

  /** Called after the scheduler of {@code partition} stopped (it serves nothing more); default nothing. */
  default void closed(int partition, Scheduler scheduler) {}
}
