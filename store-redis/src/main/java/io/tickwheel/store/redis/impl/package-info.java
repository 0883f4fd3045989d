/**
 * The Redis store's inside: its parts ({@code RedisTimers}, {@code RedisFiringLog}, {@code RedisDeliveries},
 * {@code RedisSettings}) over its keys ({@code RedisKeys}), sending through {@code RedisSender} (the fence of a
 * partition store); the connection and its failures ({@code RedisLink}, {@code RedisFailures}), the Lua scripts
 * ({@code Script}), the record encodings ({@code TimerRecord}, {@code DeliveryRecord}) and replica acknowledgement
 * ({@code ReplicaAcks}, {@code WaitGroup}). Not API: only {@code io.tickwheel.store.redis} and its
 * {@code coordination} package use it.
 */
package io.tickwheel.store.redis.impl;
