package io.tickwheel.server.route;

/**
 * Limits of the calls a cluster node forwards to partition owners.
 *
 * @param maxInFlight      forwarded calls (single calls, sub-batches, topic queries) in flight at once from this node;
 *                         one more is refused at once ({@code Refusal.Unrouted}, 503)
 * @param connectTimeoutMs to open a connection to an owner
 * @param timeoutMs        from sending a forwarded call to its whole answer; beyond it the call is reset and answered
 *                         503 (a write may have been applied then: the error says so)
 * @param poolSize         pooled connections per owner
 */
public record RouteOptions(int maxInFlight, int connectTimeoutMs, long timeoutMs, int poolSize) {

  public RouteOptions {
    if (maxInFlight < 1 || connectTimeoutMs < 1 || timeoutMs < 1 || poolSize < 1) {
      throw new IllegalArgumentException("route options must be positive: " + maxInFlight + ", " + connectTimeoutMs
          + ", " + timeoutMs + ", " + poolSize);
    }
  }

  /** 4,096 in flight, connect 1 s, answer 5 s, 32 connections per owner. */
  public static RouteOptions defaults() {
    return new RouteOptions(4096, 1000, 5000, 32);
  }

  public RouteOptions withTimeoutMs(long ms) {
    return new RouteOptions(maxInFlight, connectTimeoutMs, ms, poolSize);
  }

  public RouteOptions withMaxInFlight(int n) {
    return new RouteOptions(n, connectTimeoutMs, timeoutMs, poolSize);
  }
}
