package io.tickwheel.server.http;

import io.netty.channel.Channel;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.ServerWebSocket;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams open per token (WebSockets, event streams, wheel streams), so that a token removed from the tokens file
 * has its streams closed: a WebSocket with close code {@value #CLOSE_POLICY} ({@code token removed}), an HTTP stream
 * by closing its connection. Each stream is forgotten when its connection closes; memory is one entry per open
 * stream.
 *
 * <p>Thread safe (concurrent maps); {@link #revoked} closes on the caller's thread, which must be the streams'
 * event loop (the server's context).
 */
final class TokenStreams {

  /** WebSocket close code for a removed token: policy violation. */
  static final short CLOSE_POLICY = 1008;

  private final Map<String, Set<Runnable>> open = new ConcurrentHashMap<>();

  /** Tracks a WebSocket opened with the token of {@code digest} (nothing for {@code null}). */
  void track(byte[] digest, ServerWebSocket ws, HttpConnection connection) {
    if (digest != null) {
      add(digest, connection, () -> ws.close(CLOSE_POLICY, "token removed"));
    }
  }

  /** Tracks an HTTP stream opened with the token of {@code digest} on {@code connection}. */
  void track(byte[] digest, HttpConnection connection) {
    if (digest != null) {
      add(digest, connection, connection::close);
    }
  }

  private void add(byte[] digest, HttpConnection connection, Runnable close) {
    String key = HexFormat.of().formatHex(digest);
    Runnable entry = close::run;
    open.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(entry);
    Runnable forget = () -> open.computeIfPresent(key, (k, set) -> {
      set.remove(entry);
      return set.isEmpty() ? null : set;
    });
    if (connection instanceof io.vertx.core.net.impl.ConnectionBase base) {
      Channel ch = base.channel();
      ch.closeFuture().addListener(f -> forget.run());
    } else {
      connection.closeHandler(v -> forget.run());
    }
  }

  /** Closes every stream of the tokens with these digests. */
  void revoked(List<byte[]> digests) {
    for (byte[] d : digests) {
      Set<Runnable> streams = open.remove(HexFormat.of().formatHex(d));
      if (streams != null) {
        streams.forEach(Runnable::run);
      }
    }
  }

  /** Streams tracked now. */
  int size() {
    return open.values().stream().mapToInt(Set::size).sum();
  }
}
