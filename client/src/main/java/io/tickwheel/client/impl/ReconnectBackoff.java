package io.tickwheel.client.impl;

/**
 * Waits between reconnect attempts: {@code initial}, doubled after each failure up to {@code max}, back to
 * {@code initial} after a success. Not thread safe: one owner context.
 */
final class ReconnectBackoff {
  private final long initialMs;
  private final long maxMs;
  private long nextMs;

  ReconnectBackoff(long initialMs, long maxMs) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.nextMs = initialMs;
  }

  /** The wait before the next attempt, in milliseconds; the one after it doubles (capped). */
  long next() {
    long d = nextMs;
    nextMs = Math.min(maxMs, nextMs * 2);
    return d;
  }

  /** A connection succeeded: the next wait is the initial one again. */
  void reset() {
    nextMs = initialMs;
  }
}
