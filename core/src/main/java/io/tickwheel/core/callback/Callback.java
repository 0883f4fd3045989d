package io.tickwheel.core.callback;

import java.util.Objects;

/**
 * A timer's callback: each firing is POSTed to {@link #url()} until a 2xx answer or {@link #maxAttempts()} attempts.
 * Immutable; validated here against the contract's ranges (the edge, {@link CallbackParser}, names the JSON fields).
 *
 * <h2>Retry schedule</h2>
 * Without backoff fields ({@link #hasBackoff()} false) the n-th retry (n from 1) waits {@link #DEFAULT_SCHEDULE_MS}
 * {@code [n-1]}: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then the last again. With them it waits
 * {@code min(maxBackoffMs, minBackoffMs * 2^(n-1))}. {@link #backoffMs(int)} is that nominal wait; the sender adds
 * ±20 % jitter. {@link #largestBackoffMs()} clamps a receiver's {@code Retry-After}.
 *
 * <p>Backoff fields come both or neither (a lone bound would leave the other to a guess): {@code minBackoffMs} in
 * {@link #MIN_BACKOFF_MS}..{@link #MAX_BACKOFF_MS}, {@code maxBackoffMs} in {@code minBackoffMs}..{@link
 * #MAX_BACKOFF_MS}; {@link #NO_BACKOFF} (0) in both means "the default schedule".
 *
 * @param url          the receiver, an absolute {@code http} or {@code https} URL as the client sent it (validated by
 *                     {@link CallbackUrl})
 * @param timeoutMs    an attempt without a full answer within this many ms fails; {@value #MIN_TIMEOUT_MS}..{@value
 *                     #MAX_TIMEOUT_MS}, default {@value #DEFAULT_TIMEOUT_MS}
 * @param maxAttempts  attempts in all, the first included; {@value #MIN_ATTEMPTS}..{@value #MAX_ATTEMPTS}, default
 *                     {@value #DEFAULT_MAX_ATTEMPTS}
 * @param minBackoffMs the first retry's nominal wait, ms, or {@link #NO_BACKOFF}
 * @param maxBackoffMs the longest nominal wait, ms, or {@link #NO_BACKOFF}
 */
public record Callback(String url, int timeoutMs, int maxAttempts, long minBackoffMs, long maxBackoffMs) {

  public static final int MIN_TIMEOUT_MS = 1000;
  public static final int MAX_TIMEOUT_MS = 30_000;
  public static final int DEFAULT_TIMEOUT_MS = 10_000;
  public static final int MIN_ATTEMPTS = 1;
  public static final int MAX_ATTEMPTS = 20;
  public static final int DEFAULT_MAX_ATTEMPTS = 8;
  /** The smallest {@code minBackoffMs}: 100 ms. */
  public static final long MIN_BACKOFF_MS = 100;
  /** The largest backoff bound: one day. */
  public static final long MAX_BACKOFF_MS = 24L * 3600 * 1000;
  /** Backoff fields not given: the default schedule applies. */
  public static final long NO_BACKOFF = 0;
  /** Longest URL, in characters. */
  public static final int MAX_URL_LENGTH = 2048;

  private static final long S = 1000;
  private static final long MIN = 60 * S;
  private static final long H = 60 * MIN;
  /** The default schedule's waits, ms: the n-th retry waits entry {@code min(n, length) - 1}. */
  private static final long[] DEFAULT_SCHEDULE_MS = {5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H};

  public Callback {
    Objects.requireNonNull(url, "url");
    if (url.isEmpty() || url.length() > MAX_URL_LENGTH) {
      throw new IllegalArgumentException("url must have 1.." + MAX_URL_LENGTH + " characters, had " + url.length());
    }
    if (timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS) {
      throw new IllegalArgumentException(
          "timeoutMs must be between " + MIN_TIMEOUT_MS + " and " + MAX_TIMEOUT_MS + ", was " + timeoutMs);
    }
    if (maxAttempts < MIN_ATTEMPTS || maxAttempts > MAX_ATTEMPTS) {
      throw new IllegalArgumentException(
          "maxAttempts must be between " + MIN_ATTEMPTS + " and " + MAX_ATTEMPTS + ", was " + maxAttempts);
    }
    if ((minBackoffMs == NO_BACKOFF) != (maxBackoffMs == NO_BACKOFF)) {
      throw new IllegalArgumentException("minBackoffMs and maxBackoffMs go together, were " + minBackoffMs + " and "
          + maxBackoffMs);
    }
    if (minBackoffMs != NO_BACKOFF) {
      if (minBackoffMs < MIN_BACKOFF_MS || minBackoffMs > MAX_BACKOFF_MS) {
        throw new IllegalArgumentException(
            "minBackoffMs must be between " + MIN_BACKOFF_MS + " and " + MAX_BACKOFF_MS + ", was " + minBackoffMs);
      }
      if (maxBackoffMs < minBackoffMs || maxBackoffMs > MAX_BACKOFF_MS) {
        throw new IllegalArgumentException("maxBackoffMs must be between minBackoffMs (" + minBackoffMs + ") and "
            + MAX_BACKOFF_MS + ", was " + maxBackoffMs);
      }
    }
  }

  /** A callback to {@code url} with every other field at its default. */
  public static Callback to(String url) {
    return new Callback(url, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_ATTEMPTS, NO_BACKOFF, NO_BACKOFF);
  }

  /** Whether the client set the backoff bounds (else the default schedule applies). */
  public boolean hasBackoff() {
    return minBackoffMs != NO_BACKOFF;
  }

  /**
   * The nominal wait before the {@code n}-th retry (the {@code n+1}-th attempt), ms, before the sender's ±20 % jitter.
   *
   * @param n the retry, from 1
   * @throws IllegalArgumentException when {@code n < 1}
   */
  public long backoffMs(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("the retry number starts at 1, was " + n);
    }
    if (!hasBackoff()) {
      return DEFAULT_SCHEDULE_MS[Math.min(n, DEFAULT_SCHEDULE_MS.length) - 1];
    }
    int shift = n - 1;
    // minBackoffMs <= 2^27: beyond 36 doublings it exceeds any maxBackoffMs (<= 2^27 too), and the shift stays exact
    if (shift >= 36) {
      return maxBackoffMs;
    }
    return Math.min(maxBackoffMs, minBackoffMs << shift);
  }

  /** The longest nominal wait of the schedule, ms: the clamp of a receiver's {@code Retry-After}. */
  public long largestBackoffMs() {
    return hasBackoff() ? maxBackoffMs : DEFAULT_SCHEDULE_MS[DEFAULT_SCHEDULE_MS.length - 1];
  }
}
