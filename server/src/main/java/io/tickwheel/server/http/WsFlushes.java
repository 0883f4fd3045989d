package io.tickwheel.server.http;

import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.core.http.HttpConnection;

/**
 * Gathers the flushes of a {@code /v1/ws} connection: Vert.x flushes every message written outside a read of the
 * connection, so a turn of the fire loop publishing 1,000 firings to one subscriber made 1,000 {@code write(2)}
 * calls (and 1,000 wake-ups of the reader). Netty's {@link FlushConsolidationHandler} at the head of the connection's
 * pipeline turns them into one flush after every {@value #FLUSH_AFTER} messages and one at the end of the current
 * event-loop task: a single firing still leaves in the same event-loop turn, a burst leaves in large segments.
 *
 * <p>Installed on the connection's own event loop, before the upgrade's answer is written. Connections that are not
 * Vert.x's own Netty connections (none today) are left as they are.
 */
final class WsFlushes {

  /** Most messages written before a flush is forced within one event-loop task. */
  static final int FLUSH_AFTER = 256;
  static final String NAME = "tickwheel-flush-consolidation";

  private WsFlushes() {}

  /**
   * Installs the consolidation on {@code connection}'s channel; returns the channel (the WebSocket's after the upgrade),
   * or {@code null} if the connection has none. Event-loop thread only.
   */
  static Channel consolidate(HttpConnection connection) {
    if (!(connection instanceof io.vertx.core.net.impl.ConnectionBase base)) {
      return null;
    }
    Channel ch = base.channel();
    if (ch.pipeline().get(NAME) == null) {
      ch.pipeline().addFirst(NAME, new FlushConsolidationHandler(FLUSH_AFTER, true));
    }
    return ch;
  }
}
