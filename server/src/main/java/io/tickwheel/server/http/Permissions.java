package io.tickwheel.server.http;

import io.tickwheel.server.security.Role;
import io.vertx.core.http.HttpMethod;
import java.util.Set;

/**
 * Which role a call needs (the table in the README):
 * <ul>
 *   <li>{@code admin}: {@code GET /v1/webhook-secret}, {@code /v1/export}, {@code /v1/import}, and the calls between
 *       nodes ({@code /internal/…});</li>
 *   <li>{@code read}: every other {@code GET} (and {@code HEAD}) under {@code /v1}: timers, topics, deliveries, the
 *       wheel and its stream, the cluster, the event stream, the WebSocket (whose write commands need
 *       {@code write}, checked per command);</li>
 *   <li>{@code write}: every other call: the timer, topic and delivery actions.</li>
 * </ul>
 * Decided by method and path alone, before routing, so a call a role may not make is refused before its body is
 * read and whether or not the route exists. {@link Routes} also guards the {@code admin} routes themselves, so a
 * spelling of a path that reaches them is refused whatever it looks like. Thread safe (no state).
 */
public final class Permissions {

  private static final Set<String> ADMIN_PATHS = Set.of("/v1/webhook-secret", "/v1/export", "/v1/import");

  private Permissions() {}

  /**
   * The least role that may call {@code method path}.
   *
   * @param path the request's path as the router matches it (normalized: dot segments removed, unreserved
   *             characters decoded); repeated and trailing slashes are ignored here
   */
  public static Role needed(HttpMethod method, String path) {
    String p = stripSlash(path.replaceAll("/{2,}", "/"));
    if (p.startsWith("/internal/") || p.equals("/internal") || ADMIN_PATHS.contains(p)) {
      return Role.ADMIN;
    }
    if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS) {
      return Role.READ;
    }
    return Role.WRITE;
  }

  /** What a WebSocket write command needs. */
  public static Role neededForCommand() {
    return Role.WRITE;
  }

  private static String stripSlash(String p) {
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }
}
