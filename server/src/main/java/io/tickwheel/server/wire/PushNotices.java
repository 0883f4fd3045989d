package io.tickwheel.server.wire;

import io.vertx.core.json.JsonObject;

/**
 * The notices a firing subscriber gets besides firings, the same JSON on the WebSocket (a text message) and on
 * Server-Sent Events (an event's data): an error {@code {"type":"error","code","message","field"?}} and a gap
 * notice {@code {"type":"error","code":"gap","message","from","to"}} for firings trimmed from the log before they
 * could be replayed. Stateless, thread safe.
 */
public final class PushNotices {

  /** The code of a gap notice. */
  public static final String GAP = "gap";

  private PushNotices() {}

  /** An error notice; {@code field} may be {@code null} (then it is left out). */
  public static String error(String code, String field, String message) {
    JsonObject o = new JsonObject().put("type", "error").put("code", code).put("message", message);
    if (field != null) {
      o.put("field", field);
    }
    return o.encode();
  }

  /** The gap notice for firings {@code fromSeq..toSeq} (inclusive), trimmed before they could be replayed. */
  public static String gap(long fromSeq, long toSeq) {
    return new JsonObject().put("type", "error").put("code", GAP)
        .put("message", "firings " + fromSeq + ".." + toSeq + " were trimmed from the firing log before they could"
            + " be replayed; what is retained follows")
        .put("from", fromSeq).put("to", toSeq).encode();
  }

  /**
   * The gap notice of a cluster: firings {@code fromSeq..toSeq} (inclusive) of {@code partition} were trimmed
   * before they could be replayed.
   */
  public static String gap(int partition, long fromSeq, long toSeq) {
    return new JsonObject().put("type", "error").put("code", GAP)
        .put("message", "firings " + fromSeq + ".." + toSeq + " of partition " + partition + " were trimmed from the"
            + " firing log before they could be replayed; what is retained follows")
        .put("partition", partition).put("from", fromSeq).put("to", toSeq).encode();
  }
}
