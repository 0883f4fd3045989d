package io.tickwheel.server.cluster;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The cluster runtime's meters: {@code tickwheel_cluster_partitions_owned}, {@code tickwheel_cluster_lease_renew_seconds}
 * (one renew call for all held leases), {@code tickwheel_cluster_handovers_total} (partitions released to another
 * node), {@code tickwheel_cluster_partitions_lost_total} (stopped because a lease could not be renewed in time) and
 * {@code tickwheel_cluster_fenced_writes_total} (writes the store refused as fenced). Thread safe (Micrometer's).
 */
public final class ClusterMetrics {

  private final Timer renew;
  private final Counter handOvers;
  private final Counter lost;
  private final Counter fenced;
  private final MeterRegistry registry;

  public ClusterMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.renew = Timer.builder("tickwheel.cluster.lease.renew").description("one renew call for every held lease")
        .publishPercentiles(0.5, 0.99).register(registry);
    this.handOvers = Counter.builder("tickwheel.cluster.handovers").description("partitions handed over to another node")
        .register(registry);
    this.lost = Counter.builder("tickwheel.cluster.partitions.lost")
        .description("partitions stopped because their lease could not be renewed in time or was taken")
        .register(registry);
    this.fenced = Counter.builder("tickwheel.cluster.fenced.writes")
        .description("writes the store refused because this node's lease epoch was no longer current")
        .register(registry);
  }

  /** Registers the gauge of partitions this node serves. */
  void ownedGauge(Supplier<Number> owned) {
    Gauge.builder("tickwheel.cluster.partitions.owned", owned).description("partitions this node serves")
        .register(registry);
  }

  void renewed(long nanos) {
    renew.record(nanos, TimeUnit.NANOSECONDS);
  }

  void handedOver() {
    handOvers.increment();
  }

  void lost() {
    lost.increment();
  }

  void fencedWrite() {
    fenced.increment();
  }

  /** Counts so far, for tests and /health. */
  public long handOvers() {
    return (long) handOvers.count();
  }

  public long lostCount() {
    return (long) lost.count();
  }

  public long fencedWrites() {
    return (long) fenced.count();
  }
}
