package io.tickwheel.server.wire;

import io.vertx.core.json.JsonObject;

/**
 * The contract's error body, {@code {"error":{"code":"…","message":"…","field":"…"?}}}: what every HTTP error
 * answers, and (its inner object) what a failed item of a batch carries. {@code field} is left out when no single
 * field is to blame. Stateless, thread safe.
 */
public final class ErrorBody {

  private ErrorBody() {}

  /** The inner object: {@code {"code","message","field"?}}. */
  public static JsonObject detail(String code, String message, String field) {
    JsonObject err = new JsonObject().put("code", code).put("message", message);
    if (field != null) {
      err.put("field", field);
    }
    return err;
  }

  /** The whole body: {@code {"error":{"code","message","field"?}}}. */
  public static JsonObject of(String code, String message, String field) {
    return new JsonObject().put("error", detail(code, message, field));
  }

  /** {@link #of} encoded. */
  public static String encode(String code, String message, String field) {
    return of(code, message, field).encode();
  }
}
