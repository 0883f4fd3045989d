/**
 * The cluster coordination SPI: {@link io.tickwheel.core.coordination.ClusterCoordinator} (membership, partition leases
 * with fencing epochs, a broadcast channel), the {@link io.tickwheel.core.coordination.Partitions} hash of an id, and the
 * exceptions a fenced or misconfigured store raises.
 *
 * <p>May import {@code core.store}; never an implementation (Redis, Vert.x server code).
 */
package io.tickwheel.core.coordination;
