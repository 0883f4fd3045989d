package io.tickwheel.core.model;

/**
 * Deterministic jitter: how much later than its nominal time a timer's due time is, so that timers sharing a
 * schedule (every hour on the hour) do not all fire in the same tick. The amount depends only on the timer's id and
 * the nominal time, so it is the same after a restart or on another node, and differs from one due time to the next.
 *
 * <p>Thread safe (stateless).
 */
public final class Jitter {

  /** Largest {@code jitterMs} a timer may carry: one hour. */
  public static final long MAX_JITTER_MS = 3_600_000;

  private Jitter() {}

  /**
   * The delay, milliseconds, in {@code [0, min(jitterMs, capMs))}: {@code 0} when that range is empty or has one
   * value. Never negative, so a due time is never earlier than its nominal time.
   *
   * @param id        the timer's id
   * @param nominalMs the nominal due time, epoch ms
   * @param jitterMs  the timer's {@code jitterMs}, {@code >= 0}
   * @param capMs     an upper bound (exclusive) from the schedule, e.g. the gap to the next nominal time so that a
   *                  periodic timer's due times keep their order; {@link Long#MAX_VALUE} for none
   */
  public static long delay(String id, long nominalMs, long jitterMs, long capMs) {
    long bound = Math.min(jitterMs, capMs);
    if (bound <= 1) {
      return 0;
    }
    return Math.floorMod(mix(id.hashCode() * 0x9E3779B97F4A7C15L ^ nominalMs), bound);
  }

  /** SplitMix64's finaliser: every input bit affects every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
