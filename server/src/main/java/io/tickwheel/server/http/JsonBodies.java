package io.tickwheel.server.http;

import io.tickwheel.server.ApiException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Reads a request body (already limited to 1 MiB by the body handler) as a JSON object. Stateless. */
final class JsonBodies {

  private JsonBodies() {}

  /**
   * The body as a JSON object.
   *
   * @param optional whether an empty body is allowed (then {@code null} is returned)
   * @throws ApiException 400 when the body is missing, not JSON, or not an object
   */
  static JsonObject object(RoutingContext rc, boolean optional) {
    return object(rc.body() == null ? null : rc.body().buffer(), optional);
  }

  /** {@link #object(RoutingContext, boolean)} for a body already taken from the request. Any thread. */
  static JsonObject object(Buffer b, boolean optional) {
    if (b == null || b.length() == 0 || isBlank(b)) {
      if (optional) {
        return null;
      }
      throw ApiException.invalid(null, "a JSON object body is required");
    }
    Object v;
    try {
      v = Json.decodeValue(b);
    } catch (DecodeException e) {
      throw ApiException.invalid(null, "the body is not valid JSON: " + firstLine(e.getMessage()));
    } catch (RuntimeException e) {
      throw ApiException.invalid(null, "the body is not valid JSON");
    }
    if (!(v instanceof JsonObject o)) {
      throw ApiException.invalid(null, "the body must be a JSON object, was " + kind(v));
    }
    return o;
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    return ErrorResponses.shorten(nl < 0 ? m : m.substring(0, nl));
  }

  private static boolean isBlank(Buffer b) {
    for (int i = 0; i < b.length(); i++) {
      byte c = b.getByte(i);
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return false;
      }
    }
    return true;
  }

  static String kind(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof io.vertx.core.json.JsonArray) {
      return "an array";
    }
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Number) {
      return "a number";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    return v.getClass().getSimpleName();
  }
}
