/**
 * The Redis store's inside: the connection and its failures ({@code RedisLink}, {@code RedisFailures}), the Lua scripts
 * ({@code Script}), the record encoding ({@code TimerRecord}) and replica acknowledgement ({@code ReplicaAcks},
 * {@code WaitGroup}). Not API: only {@code io.tickwheel.store.redis} and its {@code cluster} package use it.
 */
package io.tickwheel.store.redis.impl;
