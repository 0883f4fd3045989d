package io.tickwheel.core.store;

/**
 * How much of the firing log a store keeps. A firing is trimmed when more than {@code maxCount} newer
 * firings exist, or when it was fired more than {@code maxAgeMs} ago. The newest firing is always kept,
 * so the sequence survives trimming.
 *
 * @param maxCount how many of the newest firings to keep at most, {@code >= 1}
 * @param maxAgeMs how long to keep a firing, milliseconds, {@code >= 0}
 */
public record Retention(long maxCount, long maxAgeMs) {

  /** Default {@code maxCount}: one million firings. */
  public static final long DEFAULT_MAX_COUNT = 1_000_000;

  /** Default {@code maxAgeMs}: one day, milliseconds. */
  public static final long DEFAULT_MAX_AGE_MS = 24L * 3600 * 1000;

  public Retention {
    if (maxCount < 1) {
      throw new IllegalArgumentException("maxCount must be >= 1, was " + maxCount);
    }
    if (maxAgeMs < 0) {
      throw new IllegalArgumentException("maxAgeMs must be >= 0, was " + maxAgeMs);
    }
  }

  /**
   * The time before which a record is too old at {@code nowMs}: {@code nowMs - maxAgeMs}, epoch ms, or
   * {@link Long#MIN_VALUE} (nothing is too old) when that is below the range of a {@code long}.
   */
  public long cutoff(long nowMs) {
    try {
      return Math.subtractExact(nowMs, maxAgeMs);
    } catch (ArithmeticException e) {
      return Long.MIN_VALUE;
    }
  }

  /** {@link #DEFAULT_MAX_COUNT} firings, {@link #DEFAULT_MAX_AGE_MS}: one million firings, one day. */
  public static Retention defaults() {
    return new Retention(DEFAULT_MAX_COUNT, DEFAULT_MAX_AGE_MS);
  }
}
