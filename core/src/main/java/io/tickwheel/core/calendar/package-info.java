/**
 * Calendars, pure: cron patterns parsed by cron-utils on local times ({@link io.tickwheel.core.calendar.CronPattern})
 * and mapped to instants in a time zone with the daylight-saving policies {@link io.tickwheel.core.calendar.DstGap}
 * and {@link io.tickwheel.core.calendar.DstOverlap} ({@link io.tickwheel.core.calendar.ZonedCron}).
 *
 * <p>Imports nothing of tickwheel; no I/O, no threads, no clock (times are passed in). Immutable and thread safe.
 */
package io.tickwheel.core.calendar;
