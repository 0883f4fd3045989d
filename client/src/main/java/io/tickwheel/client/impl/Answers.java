package io.tickwheel.client.impl;

import io.tickwheel.client.TickwheelException;
import io.tickwheel.client.TimerInfo;
import io.vertx.core.json.JsonObject;

/** Server answers (WebSocket results, HTTP responses) to client outcomes. Stateless, thread safe. */
final class Answers {
  private Answers() {}

  /** The status of a {@code result} message; 0 if missing. */
  static int status(JsonObject result) {
    Object s = result.getValue("status");
    return s instanceof Number n ? n.intValue() : 0;
  }

  /** A 2xx result's timer, or the result's error as an exception. */
  static TimerInfo timer(JsonObject result) {
    int status = status(result);
    if (status >= 200 && status < 300) {
      JsonObject t = result.getJsonObject("timer");
      if (t == null) {
        throw TickwheelException.client(TickwheelException.PROTOCOL, "result " + status + " without a timer: "
            + shorten(result.encode()), true);
      }
      return TimerInfo.adopt(t);
    }
    throw error(status, result.getValue("error"));
  }

  /** Nothing for a 2xx result, else its error as an exception. */
  static Void none(JsonObject result) {
    int status = status(result);
    if (status >= 200 && status < 300) {
      return null;
    }
    throw error(status, result.getValue("error"));
  }

  /**
   * The exception for a non-2xx answer whose error is {@code {"code","message","field"?}} or the whole body
   * {@code {"error":{…}}}; anything else is kept as the message.
   */
  static TickwheelException error(int status, Object error) {
    if (error instanceof JsonObject o && o.getValue("error") instanceof JsonObject inner) {
      error = inner;
    }
    if (error instanceof JsonObject e) {
      String message = e.getString("message", "status " + status);
      boolean mayHaveApplied = status == 503 && !message.contains("not applied");
      return new TickwheelException(status, e.getString("code", "status_" + status), e.getString("field"),
          message, mayHaveApplied);
    }
    return new TickwheelException(status, "status_" + status, null,
        "status " + status + (error == null ? "" : ": " + shorten(String.valueOf(error))), status == 503);
  }

  static String shorten(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
