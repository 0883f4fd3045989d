package io.tickwheel.server.http;

import io.tickwheel.server.push.ClusterFiringFeed;
import io.tickwheel.server.push.FiringPush;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The firings another node recorded, pushed to this one ({@link io.tickwheel.server.push.FiringPusher}) and handed to
 * this node's feed, on {@value FiringPush#PATH}, behind the internal route's guards (node header, token, recovery
 * gate):
 * <ul>
 *   <li>{@code GET} with a WebSocket upgrade: each binary message one push. A message that is not a push (or a text
 *       message) closes the socket with {@value #CLOSE_INVALID} ({@value #CLOSE_UNSUPPORTED} for text), its reason
 *       naming what is wrong; the pusher opens another and the gap is read from the log.</li>
 *   <li>{@code POST}: one push as the body; 204, or 400 naming what is wrong with the body.</li>
 * </ul>
 * Owner context (the feed's).
 */
public final class FiringPushApi {

  /** Close code of a binary message that is not a push: invalid frame payload data. */
  public static final short CLOSE_INVALID = 1007;
  /** Close code of a text message: unsupported data. */
  public static final short CLOSE_UNSUPPORTED = 1003;
  /** Most UTF-8 bytes of a close reason (RFC 6455: 125 bytes of payload, 2 of them the code). */
  static final int MAX_REASON_BYTES = 123;

  private final ClusterFiringFeed feed;

  public FiringPushApi(ClusterFiringFeed feed) {
    this.feed = Objects.requireNonNull(feed, "feed");
  }

  /** {@code POST}: one push. */
  public void handle(RoutingContext rc) {
    Buffer body = rc.body() == null ? null : rc.body().buffer();
    if (body == null || body.length() == 0) {
      throw ApiException.invalid(null, "a firing push needs a body");
    }
    FiringPush push;
    try {
      push = FiringPush.decode(body, feed.partitions());
    } catch (IllegalArgumentException e) {
      throw ApiException.invalid(null, ErrorResponses.shorten(e.getMessage()));
    }
    feed.onPush(push);
    rc.response().setStatusCode(204).end();
  }

  /**
   * Takes the pushes of an accepted WebSocket, each binary message one push, until it closes.
   *
   * @param admin whether the token it was opened with is still an admin token (asked before each push; when it is
   *              not, the socket is closed with {@value TokenStreams#CLOSE_POLICY}, the push not taken)
   */
  public void serve(ServerWebSocket ws, java.util.function.BooleanSupplier admin) {
    ws.binaryMessageHandler(message -> {
      if (!admin.getAsBoolean()) {
        ws.close(TokenStreams.CLOSE_POLICY, "the token is no longer an admin token");
        return;
      }
      FiringPush push;
      try {
        push = FiringPush.decode(message, feed.partitions());
      } catch (IllegalArgumentException e) {
        ws.close(CLOSE_INVALID, reason(e.getMessage()));
        return;
      }
      feed.onPush(push);
    });
    ws.textMessageHandler(text -> ws.close(CLOSE_UNSUPPORTED, "a firing push is a binary message, not text"));
  }

  /** {@code message} cut to fit a close frame (whole characters, at most {@value #MAX_REASON_BYTES} UTF-8 bytes). */
  static String reason(String message) {
    String m = message == null ? "" : message;
    if (m.getBytes(StandardCharsets.UTF_8).length <= MAX_REASON_BYTES) {
      return m;
    }
    StringBuilder out = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < m.length(); ) {
      int cp = m.codePointAt(i);
      int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;    // its UTF-8 bytes
      if (bytes + n > MAX_REASON_BYTES - 3) {
        break;
      }
      out.appendCodePoint(cp);
      bytes += n;
      i += Character.charCount(cp);
    }
    return out.append("...").toString();
  }
}
