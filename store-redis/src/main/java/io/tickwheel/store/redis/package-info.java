/**
 * The Redis store ({@code --store redis}): standalone or Redis Cluster, every write one Lua script on one master.
 *
 * <p>Public API: {@link io.tickwheel.store.redis.RedisTimerStore} with {@link io.tickwheel.store.redis.RedisStoreOptions};
 * the connection, scripts and record encoding are in {@code impl}. Implements {@code core.store} and
 * {@code core.coordination}'s fenced writes; never imports server code.
 */
package io.tickwheel.store.redis;
