package io.tickwheel.core.delivery;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * What follows an attempt of a callback delivery: the contract's retry rules as pure functions. No clock is read
 * and no randomness drawn here: the caller passes {@code nowMs} and a uniform {@code u} in {@code [0, 1)}, so every
 * value is exact in tests.
 *
 * <ul>
 *   <li>2xx: succeeded.</li>
 *   <li>410 Gone: dead at once, whatever attempts are left.</li>
 *   <li>Anything else (3xx included: redirects are never followed; no answer within the timeout; a connection
 *       error): a failure. After the round's {@code maxAttempts}-th attempt the delivery is dead; before it, the
 *       n-th retry waits its nominal backoff ±20 % ({@link #jittered}).</li>
 *   <li>429 and 503 with a valid {@code Retry-After} (delta-seconds or an HTTP date): the retry waits exactly that,
 *       clamped to {@code [0, largestBackoffMs]}; an invalid one is ignored (the schedule applies).</li>
 * </ul>
 * Thread safe (stateless).
 */
public final class RetrySchedule {

  /** The jitter of every scheduled wait: ±20 %. */
  public static final double JITTER = 0.2;

  private RetrySchedule() {}

  /** The verdict on one attempt. */
  public enum Next {
    /** A 2xx answer: the delivery is done. */
    SUCCEEDED,
    /** A failure with attempts left: try again at {@link Verdict#nextAttemptAt()}. */
    RETRY,
    /** 410, a blocked address, or the last attempt failed. */
    DEAD
  }

  /**
   * @param next          what follows
   * @param nextAttemptAt epoch ms of the next attempt when {@link Next#RETRY}, else 0
   */
  public record Verdict(Next next, long nextAttemptAt) {
    static final Verdict SUCCEEDED = new Verdict(Next.SUCCEEDED, 0);
    static final Verdict DEAD = new Verdict(Next.DEAD, 0);
  }

  /**
   * {@code nominalMs} moved by up to ±20 %: {@code nominalMs * (0.8 + 0.4 u)}, rounded down, at least 1 ms.
   *
   * @param u uniform in {@code [0, 1)} (0 gives the shortest wait, values near 1 the longest)
   */
  public static long jittered(long nominalMs, double u) {
    if (u < 0 || u >= 1 || Double.isNaN(u)) {
      throw new IllegalArgumentException("u must be in [0, 1), was " + u);
    }
    if (nominalMs < 0) {
      throw new IllegalArgumentException("nominalMs must be >= 0, was " + nominalMs);
    }
    return Math.max(1, (long) (nominalMs * (1 - JITTER + 2 * JITTER * u)));
  }

  /**
   * The verdict on an attempt.
   *
   * @param status           the HTTP status answered, or 0 when there was no full answer (timeout, connection error)
   * @param retryAfter       the {@code Retry-After} header answered, or {@code null}
   * @param attemptsInRound  attempts made in this round, this one included (1 after the first attempt); a
   *                         re-queued dead delivery starts a new round
   * @param maxAttempts      the callback's {@code maxAttempts}
   * @param nominalBackoffMs the nominal wait before retry number {@code attemptsInRound} (the callback's schedule)
   * @param largestBackoffMs the clamp of {@code Retry-After}: the schedule's longest wait
   * @param nowMs            when the attempt ended, epoch ms
   * @param u                uniform in {@code [0, 1)} for the jitter
   */
  public static Verdict judge(int status, String retryAfter, int attemptsInRound, int maxAttempts,
      long nominalBackoffMs, long largestBackoffMs, long nowMs, double u) {
    if (status >= 200 && status <= 299) {
      return Verdict.SUCCEEDED;
    }
    if (status == 410 || attemptsInRound >= maxAttempts) {
      return Verdict.DEAD;
    }
    if ((status == 429 || status == 503) && retryAfter != null) {
      long ra = retryAfterMs(retryAfter, nowMs, largestBackoffMs);
      if (ra >= 0) {
        return new Verdict(Next.RETRY, nowMs + ra);
      }
    }
    return new Verdict(Next.RETRY, nowMs + jittered(nominalBackoffMs, u));
  }

  /**
   * A {@code Retry-After} value as a wait from {@code nowMs}: delta-seconds ({@code "120"}) or an HTTP date
   * (RFC 1123, {@code "Wed, 21 Oct 2015 07:28:00 GMT"}), clamped to {@code [0, largestMs]}.
   *
   * @return the wait in ms, or -1 when the value is neither form
   */
  public static long retryAfterMs(String value, long nowMs, long largestMs) {
    String v = value.trim();
    if (v.isEmpty()) {
      return -1;
    }
    long ms;
    if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      if (v.length() > 12) {
        return largestMs; // more seconds than any clamp
      }
      ms = Long.parseLong(v) * 1000;
    } else {
      try {
        ms = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() - nowMs;
      } catch (DateTimeParseException e) {
        return -1;
      }
    }
    return Math.max(0, Math.min(largestMs, ms));
  }
}
