package io.tickwheel.core.model;

import io.tickwheel.core.callback.Callback;
import java.util.Objects;

/**
 * An accepted timer: its definition and its progress. Immutable.
 *
 * <p>All times are epoch milliseconds, all durations milliseconds.
 *
 * <p>The calendar-era fields (cron, time zone, DST policies, {@code endAt}, {@code jitterMs}, {@code paused}, the
 * nominal time of a jittered due time) and the {@code callback} are grouped in {@link Extras}, which is {@code null} for a timer that uses
 * none of them: a plain timer costs one reference more than before, no extra object. The 12-argument constructor
 * (today's shape) builds such a plain timer.
 *
 * @param id         unique key, {@code [A-Za-z0-9._:-]{1,200}}, not only dots
 * @param topic      subscribers filter on it, {@code [A-Za-z0-9._-]{1,100}}
 * @param kind       how it repeats
 * @param delayMs    the countdown a {@code touch} restarts for a {@code once} timer (its first delay,
 *                   or {@code at - createdAt} for one given {@code at}); informational for periodic timers
 * @param periodMs   the period of a fixed-rate or fixed-delay timer; {@code 0} for {@code once} and {@code cron}
 * @param maxFirings the timer ends after this many firings; {@code 0} means unlimited
 * @param misfire    the misfire rule (used by {@code fixed-rate} and {@code cron})
 * @param payload    the client's payload as JSON text, or {@code null}; stores keep it, the wheel's
 *                   in-memory copy may drop it (see {@link #withoutPayload()})
 * @param createdAt  when the timer was accepted (or last replaced)
 * @param nextDueAt  when it fires next (its nominal time plus jitter)
 * @param firings    how many times it has fired so far
 * @param generation bumped whenever the timer is replaced, touched, paused or resumed; a firing is recorded only
 *                   against the generation and firing count it was computed from (see {@code FiringRequest})
 * @param extras     the calendar fields, or {@code null} when all are at their defaults (normalised: a default
 *                   {@code Extras} is stored as {@code null})
 */
public record Timer(
    String id,
    String topic,
    Kind kind,
    long delayMs,
    long periodMs,
    long maxFirings,
    Misfire misfire,
    String payload,
    long createdAt,
    long nextDueAt,
    long firings,
    long generation,
    Extras extras) {

  /** {@link #endAt()} of a timer without an end. */
  public static final long NO_END = Long.MAX_VALUE;

  /**
   * The fields beyond the basic twelve; stores persist them (when non-null) with the timer.
   *
   * @param cron      the calendar of a {@code cron} timer (expression, zone, DST policies), else {@code null}
   * @param endAt     nothing is due after this instant, epoch ms; {@link #NO_END} for none
   * @param jitterMs  each due time is its nominal time plus {@link Jitter#delay} in {@code [0, jitterMs)}; 0..1 h
   * @param paused    paused timers fire no more until resumed (see {@link Schedule#pause})
   * @param nominalAt the nominal (un-jittered) time of {@code nextDueAt}; meaningful only when {@code jitterMs > 0}
   *                  (otherwise the nominal time is {@code nextDueAt} itself and this is 0)
   * @param callback  where each firing is also POSTed, or {@code null}
   */
  public record Extras(io.tickwheel.core.calendar.ZonedCron cron, long endAt, long jitterMs, boolean paused,
      long nominalAt, Callback callback) {

    /** All defaults: what a {@code null} {@link Timer#extras()} stands for. */
    public static final Extras NONE = new Extras(null, NO_END, 0, false, 0, null);

    /** Extras without a callback. */
    public Extras(io.tickwheel.core.calendar.ZonedCron cron, long endAt, long jitterMs, boolean paused,
        long nominalAt) {
      this(cron, endAt, jitterMs, paused, nominalAt, null);
    }

    public Extras {
      if (jitterMs < 0 || jitterMs > Jitter.MAX_JITTER_MS) {
        throw new IllegalArgumentException("jitterMs must be between 0 and " + Jitter.MAX_JITTER_MS + ", was " + jitterMs);
      }
      if (jitterMs == 0) {
        nominalAt = 0;
      }
    }

    /** Whether every field is at its default. */
    public boolean isDefault() {
      return cron == null && endAt == NO_END && jitterMs == 0 && !paused && callback == null;
    }

    public Extras withPaused(boolean p) {
      return p == paused ? this : new Extras(cron, endAt, jitterMs, p, nominalAt, callback);
    }

    public Extras withNominalAt(long n) {
      return jitterMs == 0 || n == nominalAt ? this : new Extras(cron, endAt, jitterMs, paused, n, callback);
    }
  }

  /** A timer without calendar fields (today's 12-argument shape; {@code extras} is {@code null}). */
  public Timer(String id, String topic, Kind kind, long delayMs, long periodMs, long maxFirings, Misfire misfire,
      String payload, long createdAt, long nextDueAt, long firings, long generation) {
    this(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, nextDueAt, firings, generation,
        null);
  }

  public Timer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(misfire, "misfire");
    if (extras != null && extras.isDefault()) {
      extras = null;
    }
    if (kind == Kind.CRON && (extras == null || extras.cron() == null)) {
      throw new IllegalArgumentException("a cron timer needs extras.cron");
    }
  }

  /** The calendar of a {@code cron} timer, else {@code null}. */
  public io.tickwheel.core.calendar.ZonedCron cron() {
    return extras == null ? null : extras.cron();
  }

  /** Nothing is due after this instant, epoch ms; {@link #NO_END} for none. */
  public long endAt() {
    return extras == null ? NO_END : extras.endAt();
  }

  /** The jitter bound, ms; 0 for none. */
  public long jitterMs() {
    return extras == null ? 0 : extras.jitterMs();
  }

  /** Where each firing is also POSTed, or {@code null}. */
  public Callback callback() {
    return extras == null ? null : extras.callback();
  }

  /** Whether the timer is paused (fires no more until resumed). */
  public boolean paused() {
    return extras != null && extras.paused();
  }

  /** The nominal (un-jittered) time of {@link #nextDueAt()}, epoch ms: {@code <= nextDueAt}. */
  public long nominalAt() {
    return extras == null || extras.jitterMs() == 0 ? nextDueAt : extras.nominalAt();
  }

  /** This timer with other extras ({@code null} or default for none). */
  public Timer withExtras(Extras e) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, nextDueAt, firings,
        generation, e);
  }

  /** This timer with another due time, which is also its nominal time (no jitter: see {@link #withDue}). */
  public Timer withNextDueAt(long dueAt) {
    return withDue(dueAt, dueAt);
  }

  /** This timer with another nominal time and due time ({@code dueAt >= nominalAt}). */
  public Timer withDue(long nominal, long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings,
        generation, extras == null ? null : extras.withNominalAt(nominal));
  }

  /** This timer after one more firing, next due at {@code dueAt}. */
  public Timer fired(long dueAt) {
    return fired(dueAt, dueAt);
  }

  /** This timer after one more firing, next due at {@code dueAt} for the nominal time {@code nominal}. */
  public Timer fired(long nominal, long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings + 1,
        generation, extras == null ? null : extras.withNominalAt(nominal));
  }

  /** This timer re-armed by a touch: next due at {@code dueAt}, next generation. */
  public Timer touched(long dueAt) {
    return touched(dueAt, dueAt);
  }

  /** This timer re-armed: next due at {@code dueAt} for the nominal time {@code nominal}, next generation. */
  public Timer touched(long nominal, long dueAt) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, dueAt, firings,
        generation + 1, extras == null ? null : extras.withNominalAt(nominal));
  }

  /** This timer paused or resumed (see {@link Schedule#pause}, {@link Schedule#resume}), same generation. */
  public Timer withPaused(boolean p) {
    if (p == paused()) {
      return this;
    }
    Extras e = extras == null ? Extras.NONE : extras;
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, nextDueAt, firings,
        generation, e.withPaused(p));
  }

  /** This timer with another generation (used when a replace takes over an existing id). */
  public Timer withGeneration(long gen) {
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, payload, createdAt, nextDueAt, firings,
        gen, extras);
  }

  /**
   * This timer with another payload (JSON text or {@code null}); this very timer when {@code json} is the string it
   * already holds (the same instance: no copy, and a store that keeps the object keeps sharing it).
   */
  public Timer withPayload(String json) {
    if (json == payload) {
      return this;
    }
    return new Timer(id, topic, kind, delayMs, periodMs, maxFirings, misfire, json, createdAt, nextDueAt, firings,
        generation, extras);
  }

  /** This timer without its payload: the lean copy kept in memory (its extras are kept: they are schedule). */
  public Timer withoutPayload() {
    return payload == null ? this : withPayload(null);
  }

  /** Whether it ends after the firing that makes {@code firings} reach {@code n}. */
  public boolean endsAfterFiring(long n) {
    return kind == Kind.ONCE || (maxFirings > 0 && n >= maxFirings);
  }
}
