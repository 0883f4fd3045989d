package io.tickwheel.core.model;

/**
 * The timer model's pure functions: a timer's first due time, a touch, and what happens when it comes due
 * (next due time, {@link Misfire} rules, {@code maxFirings}). No clock is read: time is passed in.
 *
 * <p>All times are epoch milliseconds. Thread safe (stateless).
 */
public final class Schedule {

  /** Default lateness beyond which a fixed-rate due time counts as missed, milliseconds. */
  public static final long DEFAULT_MISFIRE_THRESHOLD_MS = 1000;

  private Schedule() {}

  /**
   * Accepts a validated definition at {@code nowMs}.
   *
   * <p>First due time: {@code at}, else {@code now + delayMs}; a periodic timer with neither starts one
   * period from now. A {@code once} timer given {@code at} keeps {@code max(0, at - now)} as the countdown
   * a touch restarts.
   *
   * @param spec       a definition whose id is set
   * @param generation the generation to give it (1 for a new id, previous + 1 when replacing)
   */
  public static Timer accept(TimerSpec spec, long nowMs, long generation) {
    if (spec.id() == null) {
      throw new IllegalArgumentException("spec.id must be set before acceptance");
    }
    long due;
    long delay;
    if (spec.atMs() != null) {
      due = spec.atMs();
      delay = Math.max(0, due - nowMs);
    } else if (spec.delayMs() != null) {
      delay = spec.delayMs();
      due = nowMs + delay;
    } else {
      delay = spec.periodMs();
      due = nowMs + delay;
    }
    return new Timer(spec.id(), spec.topic(), spec.kind(), delay, spec.periodMs(), spec.maxFirings(),
        spec.misfire(), spec.payload(), nowMs, due, 0, generation);
  }

  /**
   * Restarts a timer's countdown (the heartbeat case): next due = now + {@code delayOverride} if given,
   * else now + its {@code delayMs} ({@code once}) or {@code periodMs} (periodic). A {@code fixed-rate}
   * timer's grid restarts from the new due time. The override applies to this countdown only.
   * The generation is bumped, so a firing computed for the old due time is refused by the store.
   */
  public static Timer touch(Timer t, long nowMs, Long delayOverride) {
    long delay = delayOverride != null ? delayOverride : (t.kind().periodic() ? t.periodMs() : t.delayMs());
    return t.touched(nowMs + delay);
  }

  /**
   * Decides what a timer does when the wheel hands it out at {@code nowMs} (its {@code nextDueAt <= nowMs}).
   *
   * <ul>
   *   <li>{@code once}: fires for its due time and ends.</li>
   *   <li>{@code fixed-delay}: fires; next due {@code periodMs} after now (when it actually fired).</li>
   *   <li>{@code fixed-rate}, on time (lateness {@code <= misfireThresholdMs}): fires for its due time
   *       {@code d}; next due {@code d + periodMs} (no drift, even if that is already past: it fires at
   *       the next turn). Missed (lateness above the threshold, e.g. after downtime): the grid times
   *       {@code d, d+p, … <= now} are missed; {@link Misfire#FIRE_ALL} fires them one by one,
   *       {@link Misfire#FIRE_ONCE} fires once for the latest of them, {@link Misfire#SKIP} fires none
   *       (unless the latest is itself within the threshold: that one is on time and fires). Then the timer
   *       continues on its grid after now.</li>
   *   <li>{@code maxFirings}: the firing that reaches it ends the timer.</li>
   * </ul>
   *
   * @param misfireThresholdMs lateness beyond which a fixed-rate due time counts as missed, {@code >= 0}
   */
  public static DueDecision onDue(Timer t, long nowMs, long misfireThresholdMs) {
    long d = t.nextDueAt();
    long n = t.firings() + 1;
    switch (t.kind()) {
      case ONCE:
        return new DueDecision(true, d, null);
      case FIXED_DELAY:
        return fire(t, d, n, nowMs + t.periodMs());
      case FIXED_RATE:
      default:
        long p = t.periodMs();
        long late = nowMs - d;
        if (late <= misfireThresholdMs || t.misfire() == Misfire.FIRE_ALL) {
          return fire(t, d, n, d + p);
        }
        long k = late / p + 1;            // grid times d .. d+(k-1)p are <= now
        long latest = d + (k - 1) * p;
        long after = latest + p;          // first grid time after now
        boolean latestOnTime = nowMs - latest <= misfireThresholdMs;
        if (t.misfire() == Misfire.FIRE_ONCE || latestOnTime) {
          return fire(t, latest, n, after);
        }
        return new DueDecision(false, latest, t.withNextDueAt(after));
    }
  }

  private static DueDecision fire(Timer t, long dueAt, long n, long nextDue) {
    return new DueDecision(true, dueAt, t.endsAfterFiring(n) ? null : t.fired(nextDue));
  }
}
