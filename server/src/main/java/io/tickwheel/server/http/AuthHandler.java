package io.tickwheel.server.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Set;

/**
 * Bearer-token check for {@code /v1}: {@code Authorization: Bearer TOKEN}; on the streaming endpoints that browsers
 * open without headers ({@code /v1/ws}, {@code /v1/events}, {@code /v1/wheel/stream}) also {@code ?access_token=TOKEN}.
 * Fails with 401 before any other work (body reading included). The comparison is constant-time (SHA-256 digests
 * compared with {@link MessageDigest#isEqual}); the token is never logged. Thread safe.
 */
final class AuthHandler implements Handler<RoutingContext> {

  private static final Set<String> QUERY_TOKEN_PATHS = Set.of("/v1/ws", "/v1/events", "/v1/wheel/stream");

  private final byte[] digest;

  /** @param token the expected token, not null */
  public AuthHandler(String token) {
    this.digest = sha256(token);
  }

  @Override
  public void handle(RoutingContext rc) {
    if (authorized(rc)) {
      rc.next();
    } else {
      rc.fail(ApiException.unauthenticated(
          "missing or wrong bearer token: send Authorization: Bearer TOKEN"
              + (QUERY_TOKEN_PATHS.contains(rc.request().path()) ? " or ?access_token=TOKEN" : "")));
    }
  }

  /** Whether the request carries the token. */
  public boolean authorized(RoutingContext rc) {
    String presented = null;
    String h = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    if (h != null && h.length() > 7 && h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      presented = h.substring(7).trim();
    } else if (QUERY_TOKEN_PATHS.contains(rc.request().path())) {
      presented = rc.request().getParam("access_token");
    }
    return presented != null && MessageDigest.isEqual(sha256(presented), digest);
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
