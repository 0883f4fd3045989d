package io.tickwheel.server.cluster;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Scheduler;
import io.vertx.core.Future;

/**
 * A partition this node holds a lease on, and the scheduler serving it. Mutable; the lease keeper's context only.
 */
final class HeldPartition {

  final int partition;
  final long epoch;
  /**
   * Monotonic time ({@link MonotonicClock}, ms) after which this node must no longer fire the partition: the send time of the last
   * successful acquire/renew + lease − safety margin. The lease began in the store after that send time, so it ends
   * after {@code deadline + margin}.
   */
  long deadline;
  final Scheduler scheduler;
  final TimerStore store;
  /** Completes when the scheduler stopped and the store closed; {@code null} until stopping. */
  Future<Void> stopped;
  /** Whether it is being stopped (handed over, lost or fenced): it serves nothing any more. */
  boolean stopping;

  HeldPartition(int partition, long epoch, long deadline, Scheduler scheduler, TimerStore store) {
    this.store = store;
    this.partition = partition;
    this.epoch = epoch;
    this.deadline = deadline;
    this.scheduler = scheduler;
  }
}
