package io.tickwheel.core.model;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.ZonedCron;

/**
 * A validated timer definition as a client sent it, before acceptance gives it due times.
 * Produced by {@link TimerParser}; turned into a {@link Timer} by {@link Schedule#accept}.
 *
 * @param id         the requested id, or {@code null} to let the server generate one
 * @param topic      the topic ({@code "default"} when not sent)
 * @param kind       the kind ({@code once} when not sent)
 * @param delayMs    first firing this long after acceptance, or {@code null} (a {@code cron} timer: not before then)
 * @param atMs       first firing at this instant (epoch ms), or {@code null}; exclusive with {@code delayMs}
 *                   (a {@code cron} timer: not before then)
 * @param periodMs   the period of a fixed-rate or fixed-delay timer, {@code 0} for {@code once} and {@code cron}
 * @param maxFirings {@code 0} for unlimited
 * @param misfire    the misfire rule
 * @param payload    JSON text, or {@code null}
 * @param cron       the calendar of a {@code cron} timer, else {@code null}
 * @param endAt      nothing is due after this instant (epoch ms); {@link Timer#NO_END} for none
 * @param jitterMs   jitter bound, ms, 0..{@link Jitter#MAX_JITTER_MS}
 * @param callback   where each firing is also POSTed, or {@code null}
 */
public record TimerSpec(
    String id,
    String topic,
    Kind kind,
    Long delayMs,
    Long atMs,
    long periodMs,
    long maxFirings,
    Misfire misfire,
    String payload,
    ZonedCron cron,
    long endAt,
    long jitterMs,
    Callback callback) {

  /** A definition without a callback. */
  public TimerSpec(String id, String topic, Kind kind, Long delayMs, Long atMs, long periodMs, long maxFirings,
      Misfire misfire, String payload, ZonedCron cron, long endAt, long jitterMs) {
    this(id, topic, kind, delayMs, atMs, periodMs, maxFirings, misfire, payload, cron, endAt, jitterMs, null);
  }

  /** A definition without calendar fields. */
  public TimerSpec(String id, String topic, Kind kind, Long delayMs, Long atMs, long periodMs, long maxFirings,
      Misfire misfire, String payload) {
    this(id, topic, kind, delayMs, atMs, periodMs, maxFirings, misfire, payload, null, Timer.NO_END, 0, null);
  }

  /** This definition with the id the server chose (or the path's). */
  public TimerSpec withId(String newId) {
    return new TimerSpec(newId, topic, kind, delayMs, atMs, periodMs, maxFirings, misfire, payload, cron, endAt,
        jitterMs, callback);
  }

  /** The extras a timer accepted from this definition starts with ({@code null} when all are defaults). */
  Timer.Extras extras() {
    Timer.Extras e = new Timer.Extras(cron, endAt, jitterMs, false, 0, callback);
    return e.isDefault() ? null : e;
  }
}
