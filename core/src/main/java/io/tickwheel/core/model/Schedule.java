package io.tickwheel.core.model;

import io.tickwheel.core.calendar.ZonedCron;

/**
 * The timer model's pure functions: a timer's first due time, a touch, what happens when it comes due (next due
 * time, {@link Misfire} rules, {@code maxFirings}, {@code endAt}), pause, resume, fire-now and the upcoming due times.
 * No clock is read: time is passed in. The server only calls these; the wheel holds one due time per timer and knows
 * nothing of calendars.
 *
 * <p>Nominal and due times: a timer's schedule gives nominal times (the fixed-rate grid, the cron calendar, …); its
 * due time ({@link Timer#nextDueAt()}, what the wheel holds) is the nominal time plus its deterministic jitter
 * ({@link Jitter#delay}, capped by the gap to the next nominal time and by {@code endAt}), never earlier. Without
 * {@code jitterMs} the two are equal. Nothing is due after {@code endAt}.
 *
 * <p>All times are epoch milliseconds. Thread safe (stateless).
 */
public final class Schedule {

  /** Default lateness beyond which a fixed-rate or cron due time counts as missed, milliseconds. */
  public static final long DEFAULT_MISFIRE_THRESHOLD_MS = 1000;
  /** How many due times {@link #upcoming(Timer)} lists. */
  public static final int UPCOMING = 5;

  private Schedule() {}

  /**
   * Accepts a validated definition at {@code nowMs}.
   *
   * <p>First nominal time: {@code at}, else {@code now + delayMs}; a fixed-rate or fixed-delay timer with neither
   * starts one period from now. A {@code cron} timer's {@code at}/{@code delayMs} mean "not before": its first nominal
   * time is the calendar's first time at or after it, or the first strictly after {@code now} when neither is given.
   * A {@code once} timer given {@code at} keeps {@code max(0, at - now)} as the countdown a touch restarts.
   *
   * @param spec       a definition whose id is set (as {@link TimerParser} produces it)
   * @param generation the generation to give it (1 for a new id, previous + 1 when replacing)
   * @throws IllegalArgumentException if the id is not set, or a cron calendar has no time within
   *                                  {@link ZonedCron#HORIZON_YEARS} (the parser refuses those)
   */
  public static Timer accept(TimerSpec spec, long nowMs, long generation) {
    if (spec.id() == null) {
      throw new IllegalArgumentException("spec.id must be set before acceptance");
    }
    long nominal;
    long delay;
    if (spec.kind() == Kind.CRON) {
      long notBefore = spec.atMs() != null ? spec.atMs() : spec.delayMs() != null ? nowMs + spec.delayMs() : nowMs + 1;
      delay = spec.atMs() != null ? Math.max(0, spec.atMs() - nowMs) : spec.delayMs() != null ? spec.delayMs() : 0;
      nominal = spec.cron().atOrAfter(notBefore);
      if (nominal == ZonedCron.NEVER) {
        throw new IllegalArgumentException("cron " + spec.cron() + " has no time within the horizon");
      }
    } else if (spec.atMs() != null) {
      nominal = spec.atMs();
      delay = Math.max(0, nominal - nowMs);
    } else if (spec.delayMs() != null) {
      delay = spec.delayMs();
      nominal = nowMs + delay;
    } else {
      delay = spec.periodMs();
      nominal = nowMs + delay;
    }
    Timer t = new Timer(spec.id(), spec.topic(), spec.kind(), delay, spec.periodMs(), spec.maxFirings(),
        spec.misfire(), spec.payload(), nowMs, nominal, 0, generation, spec.extras());
    return t.jitterMs() == 0 ? t : t.withDue(nominal, Recurrence.due(t, nominal));
  }

  /**
   * Restarts a timer's countdown (the heartbeat case): next nominal time = now + {@code delayOverride} if given,
   * else now + its {@code delayMs} ({@code once}) or {@code periodMs} (fixed-rate, fixed-delay). A {@code fixed-rate}
   * timer's grid restarts from it. A {@code cron} timer re-syncs to its calendar: its next time strictly after now, or
   * at or after {@code now + delayOverride} when given (its schedule is unchanged if the calendar has no such time
   * within the horizon). The override applies to this countdown only. A paused timer stays paused. The generation is
   * bumped, so a firing computed for the old due time is refused by the store. A next nominal time after
   * {@code endAt} is kept: when it comes due, {@link #onDue} ends the timer without firing.
   */
  public static Timer touch(Timer t, long nowMs, Long delayOverride) {
    long nominal;
    if (t.kind() == Kind.CRON) {
      nominal = delayOverride == null ? t.cron().after(nowMs) : t.cron().atOrAfter(nowMs + delayOverride);
      if (nominal == ZonedCron.NEVER) {
        return t.touched(t.nominalAt(), t.nextDueAt());
      }
    } else {
      long delay = delayOverride != null ? delayOverride : (t.kind().hasPeriod() ? t.periodMs() : t.delayMs());
      nominal = nowMs + delay;
    }
    return t.touched(nominal, Recurrence.due(t, nominal));
  }

  /**
   * Decides what a timer does when the wheel hands it out at {@code nowMs} (its {@code nextDueAt <= nowMs}).
   *
   * <ul>
   *   <li>A paused timer: nothing fires and it is unchanged (the server keeps paused timers out of the wheel; this
   *       is only the safe answer if one slips through).</li>
   *   <li>A nominal time after {@code endAt} (left by a touch): no firing, the timer ends.</li>
   *   <li>{@code once}: fires for its due time and ends.</li>
   *   <li>{@code fixed-delay}: fires; next nominal time {@code periodMs} after now (when it actually fired).</li>
   *   <li>{@code fixed-rate} and {@code cron}, on time (lateness {@code <= misfireThresholdMs}): fires for its due
   *       time; next nominal time is the next on the grid ({@code + periodMs}) or calendar (no drift, even if that is
   *       already past: it fires at the next turn). Missed (lateness above the threshold, e.g. after downtime or a
   *       topic pause): the nominal times from this one up to the latest whose due time is {@code <= now} (and
   *       {@code <= endAt}) are missed; {@link Misfire#FIRE_ALL} fires them one by one, {@link Misfire#FIRE_ONCE}
   *       fires once for the latest of them, {@link Misfire#SKIP} fires none (unless the latest is itself within the
   *       threshold: that one is on time and fires). Then the timer continues with the next nominal time after
   *       it.</li>
   *   <li>{@code maxFirings}: the firing that reaches it ends the timer. {@code endAt}: a timer whose next nominal
   *       time would be after it ends with this firing.</li>
   * </ul>
   *
   * @param misfireThresholdMs lateness beyond which a fixed-rate or cron due time counts as missed, {@code >= 0}
   */
  public static DueDecision onDue(Timer t, long nowMs, long misfireThresholdMs) {
    long d = t.nextDueAt();
    long nominal = t.nominalAt();
    long n = t.firings() + 1;
    if (t.paused()) {
      return new DueDecision(false, d, nominal, t);
    }
    if (nominal > t.endAt()) {
      return new DueDecision(false, d, nominal, null);
    }
    switch (t.kind()) {
      case ONCE:
        return new DueDecision(true, d, nominal, null);
      case FIXED_DELAY:
        return fire(t, d, nominal, n, nowMs + t.periodMs());
      case FIXED_RATE:
      case CRON:
      default:
        if (nowMs - d <= misfireThresholdMs || t.misfire() == Misfire.FIRE_ALL) {
          return fire(t, d, nominal, n, Recurrence.next(t, nominal));
        }
        long latest = Recurrence.latestAtOrBefore(t, nominal, Math.min(nowMs, t.endAt()));
        long latestDue = Recurrence.due(t, latest);
        if (latestDue > nowMs) {           // its jitter puts it after now: it is the next one, not a missed one
          latest = Recurrence.latestAtOrBefore(t, nominal, latest - 1);
          latestDue = Recurrence.due(t, latest);
        }
        long after = Recurrence.next(t, latest);
        boolean latestOnTime = nowMs - latestDue <= misfireThresholdMs;
        if (t.misfire() == Misfire.FIRE_ONCE || latestOnTime) {
          return fire(t, latestDue, latest, n, after);
        }
        if (after == Recurrence.NEVER || after > t.endAt()) {
          return new DueDecision(false, latestDue, latest, null);
        }
        return new DueDecision(false, latestDue, latest, t.withDue(after, Recurrence.due(t, after)));
    }
  }

  /**
   * Fires a timer now, out of its schedule ({@code POST …/fire}): one firing with due and nominal time {@code now}.
   * A {@code once} timer is then done ({@code next == null}), as is one whose {@code maxFirings} this firing reaches;
   * a periodic timer keeps its pending due time and schedule (its firing count goes up). Works on a paused timer too,
   * which stays paused.
   */
  public static DueDecision fireNow(Timer t, long nowMs) {
    long n = t.firings() + 1;
    if (t.endsAfterFiring(n)) {
      return new DueDecision(true, nowMs, nowMs, null);
    }
    return new DueDecision(true, nowMs, nowMs, t.fired(t.nominalAt(), t.nextDueAt()));
  }

  /**
   * Pauses a timer: it fires no more until {@link #resume}d; its pending due time is kept (touch and replace keep it
   * paused). The generation is bumped so that a firing computed before the pause is refused by the store. A timer
   * already paused is returned as it is.
   */
  public static Timer pause(Timer t) {
    return t.paused() ? t : t.withPaused(true).withGeneration(t.generation() + 1);
  }

  /**
   * Resumes a paused timer at {@code nowMs}. Due times that passed while it was paused are skipped: a periodic timer
   * continues with its first nominal time at or after now (the fixed-rate/fixed-delay grid through its pending
   * nominal time, or the cron calendar); a {@code once} timer whose time passed fires at once (due now). The
   * generation is bumped. A timer that is not paused is returned as it is.
   *
   * <p>(A topic pause is not this: the server holds the topic's timers back without touching them, and on the
   * topic's resume hands them to {@link #onDue}, where their due times follow {@code misfire}.)
   *
   * @return the resumed timer, or {@code null} when it has nothing due any more (its next nominal time would be after
   *         {@code endAt}, or beyond the calendar's horizon): it has ended and is removed
   */
  public static Timer resume(Timer t, long nowMs) {
    if (!t.paused()) {
      return t;
    }
    Timer r = t.withPaused(false).withGeneration(t.generation() + 1);
    if (r.kind() == Kind.ONCE) {
      return r.nextDueAt() >= nowMs ? r : r.withDue(r.nominalAt(), nowMs);
    }
    long nominal = Recurrence.atOrAfter(r, r.nominalAt(), nowMs);
    if (nominal == Recurrence.NEVER || nominal > r.endAt()) {
      return null;
    }
    return nominal == r.nominalAt() ? r : r.withDue(nominal, Recurrence.due(r, nominal));
  }

  /** {@link #upcoming(Timer, int)} of {@link #UPCOMING} due times. */
  public static long[] upcoming(Timer t) {
    return upcoming(t, UPCOMING);
  }

  /**
   * The next {@code count} due times (epoch ms, jitter included) of a timer as it stands: its pending due time, then
   * the following ones assuming every firing is on time (a fixed-delay timer: {@code periodMs} apart), up to
   * {@code endAt} and {@code maxFirings}. A {@code once} timer has its one due time; a paused timer none.
   */
  public static long[] upcoming(Timer t, int count) {
    if (t.paused() || count <= 0) {
      return new long[0];
    }
    long left = t.maxFirings() > 0 ? t.maxFirings() - t.firings() : Long.MAX_VALUE;
    long[] out = new long[(int) Math.min(count, Math.max(0, left))];
    int size = 0;
    long nominal = t.nominalAt();
    long due = t.nextDueAt();
    while (size < out.length && nominal != Recurrence.NEVER && nominal <= t.endAt()) {
      out[size++] = due;
      if (t.kind() == Kind.ONCE) {
        break;
      }
      nominal = Recurrence.next(t, nominal);
      due = Recurrence.due(t, nominal);
    }
    return size == out.length ? out : java.util.Arrays.copyOf(out, size);
  }

  private static DueDecision fire(Timer t, long dueAt, long nominal, long n, long nextNominal) {
    if (t.endsAfterFiring(n) || nextNominal == Recurrence.NEVER || nextNominal > t.endAt()) {
      return new DueDecision(true, dueAt, nominal, null);
    }
    return new DueDecision(true, dueAt, nominal, t.fired(nextNominal, Recurrence.due(t, nextNominal)));
  }
}
