/**
 * One partition's scheduler, owned by one event loop: the write path (validate, write the store, arm the wheel,
 * answer), the fire loop (advance the wheel to now, record a bounded batch of firings in one store call, re-arm,
 * publish in seq order), recovery, topic pauses and the read-back after an answer was lost.
 *
 * <p>Imports {@code core} and {@code server.metrics}; the only package that touches a
 * {@link io.tickwheel.core.wheel.TimerWheel}.
 */
package io.tickwheel.server.scheduler;
