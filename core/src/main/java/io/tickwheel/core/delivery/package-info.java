/**
 * Callback deliveries, pure: a {@link io.tickwheel.core.delivery.Delivery} record with its attempts and state, the
 * retry schedule ({@link io.tickwheel.core.delivery.RetrySchedule}) and its JSON form. The HTTP attempts themselves
 * are the server's ({@code io.tickwheel.server.dispatch}).
 *
 * <p>May import {@code core.model} and {@code core.callback}; no I/O, no threads, no clock.
 */
package io.tickwheel.core.delivery;
