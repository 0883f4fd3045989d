package io.tickwheel.server.scheduler;

/**
 * The delay before retrying a store call that failed: {@value #INITIAL_MS} ms, doubling with each attempt, at most
 * {@value #MAX_MS} ms. Used by every retry of the fire path (a firing batch, the re-read after a stale firing), so
 * an outage is probed at one rate. Stateless; thread safe.
 */
final class Backoff {

  /** The first retry's delay, ms. */
  static final long INITIAL_MS = 50;
  /** The longest delay, ms. */
  static final long MAX_MS = 5000;

  private Backoff() {}

  /**
   * @param attempt how many times the call has failed before, {@code >= 0}
   * @return ms to wait before the next try: 50, 100, 200, … 3200, then 5000 for every later attempt
   */
  static long delayMs(int attempt) {
    if (attempt < 0) {
      throw new IllegalArgumentException("attempt must be >= 0, was " + attempt);
    }
    // 50 << 7 = 6400 is already past the cap; a bounded shift never overflows
    return Math.min(MAX_MS, INITIAL_MS << Math.min(attempt, 7));
  }
}
