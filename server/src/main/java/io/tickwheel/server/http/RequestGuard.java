package io.tickwheel.server.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * What {@code /v1} takes from a browser, after auth and before any body is read:
 * <ul>
 *   <li>A request with a body must declare {@code Content-Type: application/json} (parameters such as
 *       {@code charset} allowed): else 415 {@code invalid_argument}. A page of another site can send a
 *       {@code text/plain} body without asking the server first, but not a JSON one. {@value #IMPORT} also takes
 *       {@code application/x-ndjson}, and {@code application/x-www-form-urlencoded} (what {@code curl --data-binary}
 *       sends unless told otherwise): a page of another site cannot use that either, since a tokenless server refuses
 *       its writes (below) and a server with a token needs an {@code Authorization} header, which such a page cannot
 *       add without a preflight.</li>
 *   <li>On a server without a token, a write ({@code POST}, {@code PUT}, {@code DELETE}, {@code PATCH}) from a page of
 *       another origin is refused with 403 {@code permission_denied}, body or not: its {@code Origin} (which
 *       browsers send with every such request) must be the server's own or one of {@code --allowed-origins}
 *       ({@link OriginCheck}); without {@code Origin}, {@code Sec-Fetch-Site} must not say {@code cross-site} or
 *       {@code same-site}. Clients that are not browsers send neither and pass.</li>
 * </ul>
 * Thread safe (no state of its own).
 */
final class RequestGuard implements Handler<RoutingContext> {

  private final boolean tokenless;
  private final OriginCheck origins;

  RequestGuard(boolean tokenless, OriginCheck origins) {
    this.tokenless = tokenless;
    this.origins = origins;
  }

  @Override
  public void handle(RoutingContext rc) {
    HttpServerRequest req = rc.request();
    if (tokenless && isWrite(req.method())) {
      String origin = req.getHeader(HttpHeaders.ORIGIN);
      String site = req.getHeader("Sec-Fetch-Site");
      boolean foreign = origin != null ? !origins.allows(origin, req.getHeader(HttpHeaders.HOST))
          : "cross-site".equalsIgnoreCase(site) || "same-site".equalsIgnoreCase(site);
      if (foreign) {
        rc.fail(new ApiException(403, "permission_denied", "a write from a page of another origin ("
            + (origin != null ? "Origin \"" + ErrorResponses.shorten(origin) + "\"" : "Sec-Fetch-Site " + site)
            + ") is refused on a server without --token: list the origin in --allowed-origins, or set --token",
            null));
        return;
      }
    }
    if (hasBody(req)) {
      String type = req.getHeader(HttpHeaders.CONTENT_TYPE);
      boolean importing = IMPORT.equals(rc.normalizedPath());
      if (!(importing ? isImportType(type) : isJson(type))) {
        rc.fail(new ApiException(415, "invalid_argument", "a request body must be sent with Content-Type: "
            + (importing ? "application/x-ndjson" : "application/json") + ", was "
            + (type == null ? "none" : "\"" + ErrorResponses.shorten(type) + "\""), null));
        return;
      }
    }
    rc.next();
  }

  /** The import's path: its body is NDJSON. */
  static final String IMPORT = "/v1/import";

  /** Whether {@code contentType} is one an import takes, parameters aside. */
  static boolean isImportType(String contentType) {
    String t = mediaType(contentType);
    return t != null && (t.equals("application/x-ndjson") || t.equals("application/json")
        || t.equals("application/x-www-form-urlencoded"));
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return null;
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }

  static boolean isWrite(HttpMethod m) {
    return m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.DELETE || m == HttpMethod.PATCH;
  }

  /** Whether the request announces a body: a {@code Content-Length} above 0, or any {@code Transfer-Encoding}. */
  static boolean hasBody(HttpServerRequest req) {
    String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (length != null && !length.trim().equals("0")) {
      return true;
    }
    return req.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  /** Whether {@code contentType} is {@code application/json}, parameters aside. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    return type.equals("application/json");
  }
}
