/**
 * The cluster coordinator on Redis ({@code --cluster}): membership, partition leases with fencing epochs and the
 * broadcast channel, as {@link io.tickwheel.core.coordination.ClusterCoordinator} specifies.
 *
 * <p>May import {@code store.redis} and its {@code impl}; never server code.
 */
package io.tickwheel.store.redis.coordination;
