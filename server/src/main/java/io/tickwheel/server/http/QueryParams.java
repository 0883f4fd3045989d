package io.tickwheel.server.http;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Set;

/**
 * The query parameters each {@code /v1} route takes. A request with any other is refused, 400
 * {@code invalid_argument} naming it, before its handler runs: a misspelt parameter ({@code ?topics=} for
 * {@code ?topic=}, {@code ?delayMs=} on a touch) would otherwise be ignored and the request served as if it were
 * absent (every topic's firings, a touch with the stored countdown). A parameter that takes one value and is given
 * more than once ({@code ?limit=1&limit=1000}) is refused too, rather than one of its values taken silently; only
 * the topic lists of {@code GET /v1/events} and {@code GET /v1/export} may be repeated (their values add up). The
 * OpenAPI document lists the same parameters ({@code OpenApiDocumentTest} checks it). Stateless, thread safe.
 */
final class QueryParams {

  private QueryParams() {}

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

  /**
   * Fails {@code rc} (400 naming the parameter) and returns false if its query has a parameter not in {@code taken},
   * or one that takes a single value more than once; true (nothing done) otherwise, at once when the request has no
   * query.
   */
  static boolean check(RoutingContext rc, Set<String> taken) {
    String q = rc.request().query();
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
}
