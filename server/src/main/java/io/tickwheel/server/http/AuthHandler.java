package io.tickwheel.server.http;

import io.tickwheel.server.security.Role;
import io.tickwheel.server.security.TokenTable;
import io.tickwheel.server.security.Tokens;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * Bearer-token and role check for {@code /v1} and {@code /internal}: {@code Authorization: Bearer TOKEN}; on the
 * streaming endpoints that browsers open without headers ({@code /v1/ws}, {@code /v1/events},
 * {@code /v1/wheel/stream}) also {@code ?access_token=TOKEN}. No token or an unknown one: 401 {@code unauthenticated};
 * a token whose role does not allow the call ({@link Permissions}): 403 {@code permission_denied}. Either fails
 * before any other work (body reading included). The token's role and digest are left in the context
 * ({@link #role}, {@link #DIGEST}) for the WebSocket's commands and the streams closed when a token is removed.
 *
 * <p>The lookup is constant-time ({@link TokenTable#roleOfDigest}); the token is never logged. Thread safe.
 */
final class AuthHandler implements Handler<RoutingContext> {

  /** Context key: the request's {@link Role}. */
  static final String ROLE = "tw.role";
  /** Context key: the SHA-256 digest ({@code byte[]}) of the request's token. */
  static final String DIGEST = "tw.tokenDigest";

  /** The paths whose token may come as {@value #QUERY_TOKEN} in the query (browsers' EventSource and WebSocket). */
  static final Set<String> QUERY_TOKEN_PATHS = Set.of("/v1/ws", "/v1/events", "/v1/wheel/stream");
  /** The query parameter of a token on {@link #QUERY_TOKEN_PATHS}. */
  static final String QUERY_TOKEN = "access_token";

  private final Tokens tokens;

  AuthHandler(Tokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public void handle(RoutingContext rc) {
    String presented = presented(rc);
    byte[] digest = presented == null ? null : TokenTable.sha256(presented);
    Role role = digest == null ? null : tokens.roleOfDigest(digest);
    if (role == null) {
      rc.fail(ApiException.unauthenticated(
          (presented == null ? "missing bearer token" : "unknown bearer token")
              + ": send Authorization: Bearer TOKEN"
              + (QUERY_TOKEN_PATHS.contains(rc.request().path()) ? " or ?access_token=TOKEN" : "")));
      return;
    }
    Role needed = Permissions.needed(rc.request().method(), rc.normalizedPath());
    if (!role.allows(needed)) {
      rc.fail(denied(rc, needed, role));
      return;
    }
    rc.put(ROLE, role);
    rc.put(DIGEST, digest);
    rc.next();
  }

  /** The 403 of a call that needs {@code needed} made with a token of {@code role}. */
  static ApiException denied(RoutingContext rc, Role needed, Role role) {
    return new ApiException(403, "permission_denied", rc.request().method() + " "
        + ErrorResponses.shorten(rc.normalizedPath()) + " needs a token of role " + needed.wire()
        + " or above; this token's role is " + role.wire(), null);
  }

  /** A route's own check: the request's role must allow {@code needed} (a server without tokens allows all). */
  static Handler<RoutingContext> require(Role needed) {
    return rc -> {
      Role role = role(rc);
      if (role.allows(needed)) {
        rc.next();
      } else {
        rc.fail(denied(rc, needed, role));
      }
    };
  }

  /** The request's role: the one {@link AuthHandler} found, or {@code admin} on a server that takes no token. */
  static Role role(RoutingContext rc) {
    Role r = rc.get(ROLE);
    return r == null ? Role.ADMIN : r;
  }

  private static String presented(RoutingContext rc) {
    String h = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    if (h != null && h.length() > 7 && h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return h.substring(7).trim();
    }
    if (QUERY_TOKEN_PATHS.contains(rc.request().path())) {
      return rc.request().getParam(QUERY_TOKEN);
    }
    return null;
  }
}
