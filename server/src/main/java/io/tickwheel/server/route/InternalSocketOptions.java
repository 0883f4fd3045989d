package io.tickwheel.server.route;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URI;
import java.util.function.Supplier;

/**
 * How a node opens a WebSocket to another node's internal route: to its advertised address with the route's
 * credentials ({@link InternalCodec#NODE_HEADER}, no {@code Origin}, the admin token as a bearer token), over TLS to
 * an {@code https://} address. Stateless.
 */
public final class InternalSocketOptions {

  private InternalSocketOptions() {}

  /**
   * The options to open {@code path} at the node advertised as {@code base} (e.g. {@code https://10.0.0.5:8080}).
   *
   * @param token     the admin token, asked now, or {@code null} for none
   * @param timeoutMs to connect, and then for the upgrade's answer
   * @throws IllegalArgumentException if {@code base} is not a URI with a host
   */
  public static WebSocketConnectOptions of(String base, String path, String nodeId, Supplier<String> token,
      long timeoutMs) {
    URI u = URI.create(base);
    if (u.getHost() == null) {
      throw new IllegalArgumentException("no host in " + base);
    }
    boolean tls = "https".equalsIgnoreCase(u.getScheme());
    WebSocketConnectOptions o = new WebSocketConnectOptions().setHost(u.getHost())
        .setPort(u.getPort() > 0 ? u.getPort() : tls ? 443 : 80).setSsl(tls)
        .setURI((u.getRawPath() == null ? "" : u.getRawPath()) + path).setAllowOriginHeader(false)
        .setConnectTimeout((int) timeoutMs).setTimeout(timeoutMs).putHeader(InternalCodec.NODE_HEADER, nodeId);
    String t = token == null ? null : token.get();
    if (t != null) {
      o.putHeader(HttpHeaders.AUTHORIZATION.toString(), "Bearer " + t);
    }
    return o;
  }

  /** Whether an upgrade failed because the node has no such route (404, 405): a node of an earlier version. */
  public static boolean routeMissing(Throwable upgradeFailure) {
    return upgradeFailure instanceof UpgradeRejectedException r && (r.getStatus() == 404 || r.getStatus() == 405);
  }
}
