package io.tickwheel.core.store;

import io.tickwheel.core.model.Timer;
import java.util.List;

/**
 * One page of a timer listing.
 *
 * @param timers the timers, by {@code nextDueAt} then id
 * @param next   where the next page starts, or {@code null} when this is the last page
 */
public record TimerPage(List<Timer> timers, TimerCursor next) {}
