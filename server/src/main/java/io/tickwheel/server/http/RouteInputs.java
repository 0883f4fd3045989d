package io.tickwheel.server.http;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Set;

/**
 * What each {@code /v1} route takes besides its path: its query parameters, and whether a request body. A request
 * with anything else is refused, 400 {@code invalid_argument}, before its handler runs, so nothing is served as if
 * the extra input were absent:
 * <ul>
 *   <li>A query parameter the route does not take, named: a misspelt one ({@code ?topics=} for {@code ?topic=},
 *       {@code ?delayMs=} on a touch) would otherwise be ignored (every topic's firings, a touch with the stored
 *       countdown). A parameter that takes one value given more than once ({@code ?limit=1&limit=1000}) too, rather
 *       than one of its values taken silently; only the topic lists of {@code GET /v1/events} and
 *       {@code GET /v1/export} may be repeated (their values add up). The OpenAPI document lists the same parameters
 *       ({@code OpenApiDocumentTest} checks it).</li>
 *   <li>A body ({@link RequestGuard#hasBody}: a {@code Content-Length} above 0, or a {@code Transfer-Encoding}) on a
 *       route that takes none: a {@code DELETE} with {@code {"ifGeneration":3}} would otherwise delete
 *       unconditionally, a fire with {@code {"payload":…}} fire the stored payload. The body is not read.</li>
 * </ul>
 * Stateless, thread safe.
 */
final class RouteInputs {

  private RouteInputs() {}

  /**
   * By "METHOD path" (the route's path as registered), the route's own parameters; a {@code /v1} route not listed
   * takes none. The paths that take a token in the query ({@link AuthHandler#QUERY_TOKEN_PATHS}) also take
   * {@code access_token}.
   */
  private static final Map<String, Set<String>> TAKEN = Map.of(
      "GET /v1/timers", Set.of("topic", "limit", "cursor"),
      "GET /v1/topics", Set.of("topic", "limit", "after"),
      "GET /v1/deliveries", Set.of("state", "limit", "cursor"),
      "GET /v1/export", Set.of("topic"),
      "GET /v1/events", Set.of("topic", "from"));

  /** The {@code /v1} routes that take a request body, as "METHOD path"; every other one takes none. */
  private static final Set<String> WITH_BODY = Set.of("POST /v1/timers", "PUT /v1/timers/:id",
      "POST /v1/timers/:id/touch", "POST /v1/timers/batch", "POST /v1/timers/touch", "POST " + RequestGuard.IMPORT);

  /** By "METHOD path", the parameters that may be given more than once; every other one takes a single value. */
  private static final Map<String, Set<String>> REPEATABLE = Map.of(
      "GET /v1/export", Set.of("topic"),
      "GET /v1/events", Set.of("topic"));

  /** What {@code method path} takes; {@code null} outside {@code /v1} (not checked). */
  static Set<String> taken(HttpMethod method, String path) {
    if (path == null || !path.startsWith("/v1/")) {
      return null;
    }
    Set<String> own = TAKEN.getOrDefault(method.name() + " " + path, Set.of());
    if (!AuthHandler.QUERY_TOKEN_PATHS.contains(path)) {
      return own;
    }
    java.util.HashSet<String> all = new java.util.HashSet<>(own);
    all.add(AuthHandler.QUERY_TOKEN);
    return Set.copyOf(all);
  }

  /**
   * What route {@code r} takes: the union over its methods ({@link #taken(HttpMethod, String)}); {@code null} outside
   * {@code /v1}.
   */
  static Set<String> taken(Route r) {
    if (r.getPath() == null || !r.getPath().startsWith("/v1/") || r.methods() == null) {
      return null;
    }
    java.util.HashSet<String> all = new java.util.HashSet<>();
    for (HttpMethod m : r.methods()) {
      all.addAll(taken(m, r.getPath()));
    }
    return Set.copyOf(all);
  }

  /** Whether {@code name} may be given more than once to {@code method path}. */
  static boolean repeatable(HttpMethod method, String path, String name) {
    return REPEATABLE.getOrDefault(method.name() + " " + path, Set.of()).contains(name);
  }

  /** Whether {@code method path} takes a request body. */
  static boolean takesBody(HttpMethod method, String path) {
    return WITH_BODY.contains(method.name() + " " + path);
  }

  /** Whether route {@code r} takes a request body (with any of its methods). */
  static boolean takesBody(Route r) {
    return r.methods() != null && r.methods().stream().anyMatch(m -> takesBody(m, r.getPath()));
  }

  /**
   * Fails {@code rc} (400) and returns false if it has a body its route does not take, a query parameter not in
   * {@code taken} (named), or one that takes a single value more than once; true (nothing done) otherwise.
   *
   * @param bodyTaken whether the route takes a body ({@link #takesBody})
   */
  static boolean check(RoutingContext rc, Set<String> taken, boolean bodyTaken) {
    HttpServerRequest req = rc.request();
    if (!bodyTaken && RequestGuard.hasBody(req)) {
      rc.fail(ApiException.invalid(null, req.method().name() + " " + rc.currentRoute().getPath()
          + " takes no request body, was sent one (" + bodySign(req) + ")"));
      return false;
    }
    String q = req.query();
    if (q == null || q.isEmpty()) {
      return true;
    }
    MultiMap params = rc.queryParams();    // a query that does not decode was refused by the router (400)
    for (String name : params.names()) {
      if (!taken.contains(name)) {
        String shown = ErrorResponses.shorten(name);
        rc.fail(ApiException.invalid(shown, "unknown query parameter '" + shown + "' ("
            + rc.request().method().name() + " " + rc.currentRoute().getPath() + " takes "
            + (taken.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(taken))) + ")"));
        return false;
      }
      int given = params.getAll(name).size();
      if (given > 1 && !repeatable(rc.request().method(), rc.currentRoute().getPath(), name)) {
        String shown = ErrorResponses.shorten(name);
        rc.fail(ApiException.invalid(shown, "query parameter '" + shown + "' takes one value, was given " + given
            + " times (" + rc.request().method().name() + " " + rc.currentRoute().getPath() + ")"));
        return false;
      }
    }
    return true;
  }

  private static String bodySign(HttpServerRequest req) {
    String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    return length != null ? "Content-Length " + ErrorResponses.shorten(length.trim())
        : "Transfer-Encoding " + ErrorResponses.shorten(req.getHeader(HttpHeaders.TRANSFER_ENCODING));
  }
}
