/**
 * Partition ownership: {@link io.tickwheel.server.cluster.Ownership} is either the sole owner (a single node holds
 * every partition, for good) or {@link io.tickwheel.server.cluster.ClusterNode}, whose
 * {@link io.tickwheel.server.cluster.LeaseKeeper} acquires, renews and hands over partition leases on a monotonic
 * clock; the typed broadcast between nodes ({@link io.tickwheel.server.cluster.Broadcast}); the fence watch on a
 * partition's store.
 *
 * <p>Imports {@code core.coordination}, {@code core.store} and the scheduler it hands partitions to; never HTTP or push.
 */
package io.tickwheel.server.cluster;
