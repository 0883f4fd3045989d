package io.tickwheel.server.http;

import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.wire.BodyLimit;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;

/**
 * Writes every error as the contract's {@code {"error":{"code","message","field"?}}} with its status, and maps
 * whatever failed a route (an {@link ApiException}, a {@link ValidationException}, a bad JSON body, a body over
 * the limit, a missing route) to one. Bad input never becomes a 500; a body over the limit closes the connection
 * after the 413 so the rest of it is never read.
 *
 * <p>Stateless, thread safe.
 */
final class ErrorResponses {

  private static final System.Logger LOG = System.getLogger(ErrorResponses.class.getName());

  private ErrorResponses() {}

  /** The error body. */
  public static JsonObject body(ApiException e) {
    return ErrorBody.of(e.code(), e.getMessage(), e.field());
  }

  /** Answers {@code e}, unless a response has already started (then the connection is reset). */
  public static void send(RoutingContext rc, ApiException e) {
    HttpServerResponse res = rc.response();
    if (res.headWritten()) {
      if (!res.ended()) {
        res.reset();
      }
      return;
    }
    res.setStatusCode(e.status()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    if (e.retryAfterSeconds() > 0) {
      res.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(e.retryAfterSeconds()));
    }
    if (e.status() == 401) {
      res.putHeader("WWW-Authenticate", "Bearer realm=\"tickwheel\"");
    }
    if (!rc.request().isEnded()) {
      // Refused before its body was read (413 over the limit, 401 before any work…): answer, then close the
      // connection after a bounded lingering read (as nginx's lingering close): closing with unread input makes the
      // kernel send a reset, which can destroy the answer before the client reads it.
      res.putHeader(HttpHeaders.CONNECTION, "close");
      lingerThenClose(rc);
      res.end(body(e).toBuffer());
      return;
    }
    res.end(body(e).toBuffer());
  }

  /**
   * Reads and drops the rest of a refused request's body, then closes the connection: at its end, after
   * {@link #LINGER_MAX_BYTES} more bytes, or after {@link #LINGER_MS}, whichever comes first (so a client that keeps
   * sending holds nothing for long).
   */
  private static void lingerThenClose(RoutingContext rc) {
    io.vertx.core.http.HttpServerRequest req = rc.request();
    io.vertx.core.http.HttpConnection conn = req.connection();
    long[] read = {0};
    long timer = rc.vertx().setTimer(LINGER_MS, t -> conn.close());
    Runnable close = () -> {
      rc.vertx().cancelTimer(timer);
      conn.close();
    };
    try {
      req.handler(b -> {
        read[0] += b.length();
        if (read[0] > LINGER_MAX_BYTES) {
          close.run();
        }
      });
      req.endHandler(v -> close.run());
      req.exceptionHandler(x -> close.run());
      req.resume();
    } catch (IllegalStateException alreadyRead) {
      // the body was consumed meanwhile: nothing left to drain
      rc.response().endHandler(v -> close.run());
    }
  }

  /** The most bytes of a refused request's body read and dropped before its connection is closed. */
  static final long LINGER_MAX_BYTES = 4L << 20;
  /** The longest a refused request's connection stays open to drain its body, ms. */
  static final long LINGER_MS = 2_000;

  /** The router's failure handler: maps the failure (or bare status) to a JSON error. */
  public static void handle(RoutingContext rc) {
    send(rc, toApi(rc.failure(), rc.statusCode()));
  }

  /** The router's handler for a bare status (404 no route, 405 wrong method, 413 body too large…). */
  public static void status(RoutingContext rc, int status) {
    send(rc, forStatus(status, rc));
  }

  static ApiException toApi(Throwable f, int status) {
    if (f instanceof ApiException a) {
      return a;
    }
    if (f instanceof ValidationException v) {
      return v.tooLarge() ? ApiException.tooLarge(v.field(), v.getMessage()) : ApiException.invalid(v.field(), v.getMessage());
    }
    if (f instanceof DecodeException d) {
      return ApiException.invalid(null, "the body is not valid JSON: " + shorten(d.getMessage()));
    }
    if (f instanceof HttpException h) {
      return forStatus(h.getStatusCode(), null);
    }
    if (f == null || (status >= 400 && status < 500)) {
      // a bare status, or a handler's own refusal (e.g. the CORS handler's 403 for an origin not allowed)
      return forStatus(status, null);
    }
    LOG.log(System.Logger.Level.ERROR, "unexpected failure", f);
    return ApiException.internal("internal error: " + f.getClass().getSimpleName());
  }

  static ApiException forStatus(int status, RoutingContext rc) {
    String what = rc == null ? "" : " for " + rc.request().method() + " " + shorten(rc.request().path());
    return switch (status) {
      case 400 -> ApiException.invalid(null, "bad request" + what);
      case 401 -> ApiException.unauthenticated("missing or wrong bearer token");
      case 403 -> new ApiException(403, "permission_denied", "forbidden" + what, null);
      case 404 -> ApiException.notFound("no such route" + what);
      case 405 -> new ApiException(405, "method_not_allowed", "method not allowed" + what, null);
      case 413 -> ApiException.tooLarge(null, "the request body is over the limit of " + BodyLimit.text());
      case 414, 431 -> new ApiException(status, "invalid_argument", "request line or headers too large", null);
      case 415 -> new ApiException(415, "invalid_argument", "unsupported media type", null);
      case 503 -> ApiException.unavailable("service unavailable");
      default -> status >= 400 && status < 500
          ? new ApiException(status, "invalid_argument", "request refused (HTTP " + status + ")", null)
          : ApiException.internal("internal error (HTTP " + status + ")");
    };
  }

  static String shorten(String s) {
    if (s == null) {
      return "";
    }
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
