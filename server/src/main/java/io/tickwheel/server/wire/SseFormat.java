package io.tickwheel.server.wire;

import io.vertx.core.buffer.Buffer;

/**
 * The Server-Sent Events wire format (WHATWG HTML, "Server-sent events"): fields {@code id}, {@code event},
 * {@code data}, comments starting with {@code :}, an empty line ending each event: the framing of both
 * {@code GET /v1/events} (firings) and {@code GET /v1/wheel/stream} (wheel snapshots). Stateless, thread safe.
 */
public final class SseFormat {

  /** The media type of the stream. */
  public static final String CONTENT_TYPE = "text/event-stream; charset=utf-8";

  private SseFormat() {}

  /**
   * One event. {@code data} is split on line breaks into several {@code data:} lines (a client joins them back
   * with {@code \n}), so no data can break the framing.
   *
   * @param id    the event id (what a client sends back as {@code Last-Event-ID}), or {@code null} for none:
   *              the client then keeps its previous last event id
   * @param event the event type
   * @param data  the event data
   */
  public static Buffer event(String id, String event, String data) {
    Buffer b = head(id, event, data.length());
    appendData(b, data);
    return b.appendString("\n");
  }

  /**
   * {@link #event(String, String, String)} with the data given as UTF-8 bytes (not changed by this call): copied as
   * they are when they hold no line break, else decoded and split as a string is.
   */
  public static Buffer event(String id, String event, byte[] data) {
    for (byte c : data) {
      if (c == '\n' || c == '\r') {
        return event(id, event, new String(data, java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    return head(id, event, data.length).appendString("data: ").appendBytes(data).appendString("\n\n");
  }

  /** A buffer for an event of about {@code dataLength} bytes of data, holding its id and event lines. */
  private static Buffer head(String id, String event, int dataLength) {
    Buffer b = Buffer.buffer(dataLength + 48 + (id == null ? 0 : id.length()));
    if (id != null) {
      b.appendString("id: ").appendString(id).appendString("\n");
    }
    return b.appendString("event: ").appendString(event).appendString("\n");
  }

  /** A comment: ignored by clients, keeps proxies and the connection alive. */
  public static Buffer comment(String text) {
    return Buffer.buffer(": " + text.replace('\r', ' ').replace('\n', ' ') + "\n\n");
  }

  /** How long a client waits before it reconnects after the stream broke, ms: the {@code retry} field. */
  public static Buffer retry(long ms) {
    return Buffer.buffer("retry: " + ms + "\n\n");
  }

  private static void appendData(Buffer b, String data) {
    if (data.indexOf('\n') < 0 && data.indexOf('\r') < 0) {
      b.appendString("data: ").appendString(data).appendString("\n");
      return;
    }
    int start = 0;
    int n = data.length();
    for (int i = 0; i < n; i++) {
      char c = data.charAt(i);
      if (c == '\n' || c == '\r') {
        b.appendString("data: ").appendString(data.substring(start, i)).appendString("\n");
        if (c == '\r' && i + 1 < n && data.charAt(i + 1) == '\n') {
          i++;
        }
        start = i + 1;
      }
    }
    b.appendString("data: ").appendString(data.substring(start)).appendString("\n");
  }
}
