package io.tickwheel.bench.wheel;

import java.util.SplittableRandom;

/**
 * The workload every peer gets: the same keys, the same delays, the same order of access.
 *
 * <ul>
 *   <li>Keys are {@code "timer-" + i} (hash codes computed up front, so no peer pays for the first
 *       {@link String#hashCode}).</li>
 *   <li>Far delays, for the pre-filled and re-armed timers, are uniform in [1 h, 2 h): far enough not to
 *       fire during a trial, spread over many slots of every wheel. A table of 2<sup>20</sup> random delays,
 *       so that a million timers get (nearly) distinct due times rather than clumps on a few.</li>
 *   <li>{@link #order} is a random permutation of the pending timers, so that cancel and churn touch them in
 *       random order (as heartbeats do), not in allocation order.</li>
 * </ul>
 */
public final class Fixtures {

  /** Due times of the drain workload are spread over this many milliseconds. */
  public static final int DRAIN_WINDOW_MS = 100;

  private static final long HOUR_MS = 3_600_000L;
  private static final int DELAYS = 1 << 20;

  private final String[] keys;
  private final long[] farDelaysMs = new long[DELAYS];
  private final int[] order;
  private final int[] drainOffsetsMs;

  /**
   * @param pending the number of pre-filled timers (size of {@link #order})
   * @param total   the number of keys (pending plus the fresh keys a workload schedules on top)
   */
  public Fixtures(int pending, int total) {
    if (pending < 0 || total < pending) {
      throw new IllegalArgumentException("need 0 <= pending <= total, was pending=" + pending + " total=" + total);
    }
    SplittableRandom random = new SplittableRandom(42);
    keys = new String[total];
    for (int i = 0; i < total; i++) {
      keys[i] = "timer-" + i;
      keys[i].hashCode();
    }
    for (int i = 0; i < DELAYS; i++) {
      farDelaysMs[i] = HOUR_MS + random.nextLong(HOUR_MS);
    }
    order = new int[pending];
    for (int i = 0; i < pending; i++) {
      order[i] = i;
    }
    for (int i = pending - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    drainOffsetsMs = new int[total];
    for (int i = 0; i < total; i++) {
      drainOffsetsMs[i] = 1 + random.nextInt(DRAIN_WINDOW_MS);
    }
  }

  public String key(int i) {
    return keys[i];
  }

  public int keyCount() {
    return keys.length;
  }

  /** A far delay (in [1 h, 2 h)) for the {@code n}-th scheduling; cycles through a fixed random table. */
  public long farDelayMs(int n) {
    return farDelaysMs[n & (DELAYS - 1)];
  }

  /** The {@code n}-th pending timer in random order, {@code 0 <= n < pending}. */
  public int order(int n) {
    return order[n];
  }

  public int pending() {
    return order.length;
  }

  /** Due offset of drain timer {@code i}, milliseconds in [1, {@link #DRAIN_WINDOW_MS}]. */
  public int drainOffsetMs(int i) {
    return drainOffsetsMs[i];
  }
}
