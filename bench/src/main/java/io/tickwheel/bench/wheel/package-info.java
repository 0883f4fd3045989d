/**
 * The wheel against its peers under JMH: Netty's {@code HashedWheelTimer}, Kafka's {@code SystemTimer}, Agrona's
 * {@code DeadlineTimerWheel} and {@code ScheduledThreadPoolExecutor}, each behind {@link io.tickwheel.bench.wheel.TimerPeer}
 * and driven the way that is fairest to it; {@link io.tickwheel.bench.wheel.WheelBenchReport} prints the ratios.
 *
 * <p>Imports only {@code core.wheel} of tickwheel.
 */
package io.tickwheel.bench.wheel;
