package io.tickwheel.core.delivery;

/**
 * One attempt of a delivery, as listed in its record.
 *
 * @param n          the attempt's number, from 1, counted over the delivery's whole life (re-queues included)
 * @param at         when it started, epoch ms
 * @param status     the HTTP status answered, or 0 when there was no full answer
 * @param error      why it failed without a status ({@code timeout}, {@code connection}, {@code blocked_address},
 *                   …), or {@code null}
 * @param durationMs how long it took, ms
 */
public record Attempt(int n, long at, int status, String error, long durationMs) {

  public Attempt {
    if (n < 1) {
      throw new IllegalArgumentException("n starts at 1, was " + n);
    }
    if (status < 0 || status > 999) {
      throw new IllegalArgumentException("status must be 0 or an HTTP status, was " + status);
    }
  }
}
