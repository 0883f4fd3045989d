package io.tickwheel.core.model;

import io.tickwheel.core.calendar.ZonedCron;

/**
 * A timer's nominal times and the jittered due times derived from them; the arithmetic behind {@link Schedule}.
 * All times epoch ms; {@link ZonedCron#NEVER} for "no such time". Thread safe (stateless).
 */
final class Recurrence {

  static final long NEVER = ZonedCron.NEVER;

  private Recurrence() {}

  /**
   * The nominal time after {@code nominal} on the timer's schedule, assuming it fires on time: {@code + periodMs}
   * for fixed-rate and fixed-delay, the calendar's next time for cron, {@link #NEVER} for once. {@code endAt} is not
   * applied here.
   */
  static long next(Timer t, long nominal) {
    switch (t.kind()) {
      case FIXED_RATE:
      case FIXED_DELAY:
        return plus(nominal, t.periodMs());
      case CRON:
        return t.cron().after(nominal);
      case ONCE:
      default:
        return NEVER;
    }
  }

  /** The first nominal time at or after {@code ms} on the grid or calendar through {@code nominal} (periodic kinds). */
  static long atOrAfter(Timer t, long nominal, long ms) {
    if (nominal >= ms) {
      return nominal;
    }
    if (t.kind() == Kind.CRON) {
      return t.cron().atOrAfter(ms);
    }
    long p = t.periodMs();
    long k = (ms - nominal + p - 1) / p;
    return plus(nominal, Math.multiplyHigh(k, p) != 0 ? Long.MAX_VALUE : k * p);
  }

  /**
   * The latest nominal time at or before {@code limit} on the schedule through {@code nominal} ({@code nominal <=
   * limit}): arithmetic for fixed-rate, {@link ZonedCron#latestAtOrBefore} for cron.
   */
  static long latestAtOrBefore(Timer t, long nominal, long limit) {
    if (t.kind() != Kind.CRON) {
      long p = t.periodMs();
      return nominal + (limit - nominal) / p * p;
    }
    return t.cron().latestAtOrBefore(nominal, limit);
  }

  /**
   * The due time for {@code nominal}: itself plus {@link Jitter#delay}, the jitter capped by the gap to the next nominal
   * time (so due times keep their order) and by {@code endAt} (so nothing is due after it).
   */
  static long due(Timer t, long nominal) {
    long jitter = t.jitterMs();
    if (jitter == 0 || nominal == NEVER) {
      return nominal;
    }
    long cap = Long.MAX_VALUE;
    if (t.kind().periodic()) {
      long next = next(t, nominal);
      cap = next == NEVER ? Long.MAX_VALUE : next - nominal;
    }
    if (t.endAt() != Timer.NO_END && t.endAt() >= nominal) {
      cap = Math.min(cap, t.endAt() - nominal + 1);
    }
    return nominal + Jitter.delay(t.id(), nominal, jitter, cap);
  }

  private static long plus(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? NEVER : r;
  }
}
