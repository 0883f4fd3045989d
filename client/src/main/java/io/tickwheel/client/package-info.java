/**
 * The Java client of tickwheel: {@link io.tickwheel.client.TickwheelClient} (created with
 * {@link io.tickwheel.client.TickwheelClientOptions}), the timer types it sends and answers
 * ({@link io.tickwheel.client.TimerRequest}, {@link io.tickwheel.client.TimerInfo},
 * {@link io.tickwheel.client.TimerPage}, {@link io.tickwheel.client.Firing}), resuming subscriptions
 * ({@link io.tickwheel.client.Subscription}) and its one exception type
 * ({@link io.tickwheel.client.TickwheelException}). Everything in {@code impl} may change without notice.
 */
package io.tickwheel.client;
