package io.tickwheel.server.dispatch;

/**
 * What one attempt came to.
 *
 * @param status     the HTTP status answered (the whole answer read), or 0 when there was none
 * @param retryAfter the {@code Retry-After} header answered, or {@code null}
 * @param error      why there was no answer: {@code timeout} (no full answer within {@code timeoutMs}),
 *                   {@code connection} (refused, reset, TLS failure, DNS failure), {@code blocked_address} (the SSRF
 *                   guard refused the host), {@code dns_error} (the name did not resolve); {@code null} with a
 *                   status
 * @param durationMs from the start of the attempt (resolution included) to its end, ms
 */
record AttemptResult(int status, String retryAfter, String error, long durationMs) {

  public static final String TIMEOUT = "timeout";
  public static final String CONNECTION = "connection";
  public static final String BLOCKED = "blocked_address";
  public static final String DNS_ERROR = "dns_error";

  /** The outcome label of metrics: {@code 2xx}, {@code 3xx}, {@code 4xx}, {@code 410}, {@code 429}, {@code 5xx},
   * {@code timeout}, {@code connection}, {@code blocked_address}, {@code dns_error}. */
  public String outcome() {
    if (status == 0) {
      return error;
    }
    if (status == 410 || status == 429) {
      return Integer.toString(status);
    }
    return (status / 100) + "xx";
  }

  /** Whether it counts against the host's breaker: no answer, a 5xx or a 429 (blocked is the guard's, not the host's). */
  boolean hostFailure() {
    return status == 0 ? !BLOCKED.equals(error) : status >= 500 || status == 429;
  }
}
