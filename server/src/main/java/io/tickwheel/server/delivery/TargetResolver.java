package io.tickwheel.server.delivery;

import io.vertx.core.Future;

/**
 * The SSRF guard as the sender uses it: resolves a callback host once per attempt, checks every address it resolves
 * to, and names the one address to connect to (so the address checked is the address connected to).
 */
@FunctionalInterface
public interface TargetResolver {

  /**
   * @param host a callback URL's host (a name, or an address literal without brackets)
   * @return the address to connect to; or failed with {@link Blocked} when the guard refuses it (any address
   *     private, loopback, … under a strict policy), or with another exception when the name does not resolve
   */
  Future<java.net.InetAddress> resolve(String host);

  /** The guard refused the host: its delivery goes dead with error {@code blocked_address}. */
  final class Blocked extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Blocked(String message) {
      super(message, null, false, false);
    }
  }
}
