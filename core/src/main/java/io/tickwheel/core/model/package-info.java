/**
 * The timer model: what a client sends ({@link io.tickwheel.core.model.TimerSpec}, parsed and validated at the edge by
 * {@link io.tickwheel.core.model.TimerParser} with messages naming the field), what is stored
 * ({@link io.tickwheel.core.model.Timer}), the kinds and their due-time rules ({@link io.tickwheel.core.model.Schedule},
 * {@link io.tickwheel.core.model.Misfire}, {@link io.tickwheel.core.model.Jitter}), a firing, and the limits.
 *
 * <p>May import {@code core.calendar} and {@code core.callback}; no I/O, no threads, no clock (times are passed in).
 */
package io.tickwheel.core.model;
