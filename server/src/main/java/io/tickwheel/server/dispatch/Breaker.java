package io.tickwheel.server.dispatch;

/**
 * One host's circuit breaker: {@code failures} consecutive failed attempts open it for {@code openMs}; then it lets
 * one trial attempt through (half-open): a success closes it, a failure opens it again. Attempts it refuses are
 * postponed by the caller, not used up. Time is passed in (no clock read here).
 *
 * <p>Not thread safe: the delivery service's owner context only.
 */
final class Breaker {

  /** Closed, open, or half-open with its trial in flight. */
  enum State { CLOSED, OPEN, HALF_OPEN }

  private final int failures;
  private final long openMs;
  private int consecutive;
  private long openUntil;
  private boolean trialInFlight;

  Breaker(int failures, long openMs) {
    this.failures = failures;
    this.openMs = openMs;
  }

  /**
   * Whether an attempt may start at {@code nowMs}; when the open time is over, the first caller gets the trial.
   *
   * @return 0 when it may start, else the time (epoch ms) to postpone it to
   */
  long admit(long nowMs) {
    if (consecutive < failures) {
      return 0;
    }
    if (nowMs < openUntil) {
      return openUntil;
    }
    if (trialInFlight) {
      return nowMs + openMs;
    }
    trialInFlight = true;
    return 0;
  }

  /** Records an attempt's end at {@code nowMs}: {@code failed} when there was no answer, a 5xx or a 429. */
  void record(boolean failed, long nowMs) {
    trialInFlight = false;
    if (!failed) {
      consecutive = 0;
      return;
    }
    consecutive++;
    if (consecutive >= failures) {
      openUntil = nowMs + openMs;
    }
  }

  /** Whether it remembers nothing: no failure since the last success, no trial in flight (it may be forgotten). */
  boolean blank() {
    return consecutive == 0 && !trialInFlight;
  }

  State state(long nowMs) {
    if (consecutive < failures) {
      return State.CLOSED;
    }
    return nowMs < openUntil ? State.OPEN : State.HALF_OPEN;
  }
}
