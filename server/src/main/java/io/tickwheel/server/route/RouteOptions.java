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
 * @param trust            what an owner at an {@code https://} address is verified against ({@code --tls-ca}), or
 *                         {@code null} for the JVM's trust store; the host name is verified too
 */
public record RouteOptions(int maxInFlight, int connectTimeoutMs, long timeoutMs, int poolSize,
    io.vertx.core.net.TrustOptions trust) {

  public RouteOptions {
    if (maxInFlight < 1 || connectTimeoutMs < 1 || timeoutMs < 1 || poolSize < 1) {
      throw new IllegalArgumentException("route options must be positive: " + maxInFlight + ", " + connectTimeoutMs
          + ", " + timeoutMs + ", " + poolSize);
    }
  }

  /** These limits, the JVM's trust store. */
  public RouteOptions(int maxInFlight, int connectTimeoutMs, long timeoutMs, int poolSize) {
    this(maxInFlight, connectTimeoutMs, timeoutMs, poolSize, null);
  }

  /** These limits, owners at {@code https://} addresses verified against {@code t} ({@code null}: the JVM's). */
  public RouteOptions withTrust(io.vertx.core.net.TrustOptions t) {
    return new RouteOptions(maxInFlight, connectTimeoutMs, timeoutMs, poolSize, t);
  }

  /** 4,096 in flight, connect 1 s, answer 5 s, 32 connections per owner. */
  public static RouteOptions defaults() {
    return new RouteOptions(4096, 1000, 5000, 32);
  }

  public RouteOptions withTimeoutMs(long ms) {
    return new RouteOptions(maxInFlight, connectTimeoutMs, ms, poolSize, trust);
  }

  public RouteOptions withMaxInFlight(int n) {
    return new RouteOptions(n, connectTimeoutMs, timeoutMs, poolSize, trust);
  }
}
