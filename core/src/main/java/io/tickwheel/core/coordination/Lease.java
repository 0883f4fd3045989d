package io.tickwheel.core.coordination;

/**
 * One partition's lease as stored by the coordinator.
 *
 * @param partition 0..partitions-1
 * @param nodeId    the holder
 * @param epoch     the fencing token: grows every time the partition changes hands (a renewal by the holder keeps it),
 *                  and is never handed out twice, also after the coordinator's data rolled back (a Redis failover
 *                  that lost writes): epochs are at least the coordinator's clock in ms when issued
 * @param expiresAt the coordinator's time (epoch ms) at which the lease ends unless renewed
 */
public record Lease(int partition, String nodeId, long epoch, long expiresAt) {}
