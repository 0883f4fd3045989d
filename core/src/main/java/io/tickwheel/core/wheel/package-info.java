/**
 * The hierarchical timing wheel: O(1) schedule, cancel and re-arm by key, primitive arrays for the key index and
 * the links ({@link io.tickwheel.core.wheel.KeyIndex}, {@link io.tickwheel.core.wheel.Entries}), a due-time heap for
 * the current tick ({@link io.tickwheel.core.wheel.DueHeap}).
 *
 * <p>Imports nothing of tickwheel. It never reads a clock: time is passed in. Not thread safe: one owner thread per
 * wheel, as {@link io.tickwheel.core.wheel.TimerWheel} documents.
 */
package io.tickwheel.core.wheel;
