package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A WebSocket test client: every text message received is parsed and queued; the test thread takes them. */
final class WsProbe implements AutoCloseable {

  final WebSocketClient client;
  final WebSocket ws;
  final LinkedBlockingQueue<JsonObject> messages;
  /** Completes with the close status code (null when the connection dropped without a close frame). */
  final CompletableFuture<Short> closed;

  private WsProbe(WebSocketClient client, WebSocket ws, LinkedBlockingQueue<JsonObject> messages,
      CompletableFuture<Short> closed) {
    this.client = client;
    this.ws = ws;
    this.messages = messages;
    this.closed = closed;
  }

  static WsProbe connect(PushServer server) {
    return connect(server, new WebSocketClientOptions());
  }

  static WsProbe connect(PushServer server, WebSocketClientOptions options) {
    return connect(server.vertx, server.port, options);
  }

  /** A probe on {@code /v1/ws} of any server on the loopback (e.g. a cluster node's hub). */
  static WsProbe connect(Vertx vertx, int port, WebSocketClientOptions options) {
    WebSocketClient client = vertx.createWebSocketClient(options);
    LinkedBlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
    CompletableFuture<Short> closed = new CompletableFuture<>();
    WebSocket ws = PushServer.await(client.connect(new WebSocketConnectOptions()
            .setHost("127.0.0.1").setPort(port).setURI("/v1/ws"))
        .map(w -> {
          try {
            w.textMessageHandler(text -> messages.add(new JsonObject(text)));
            w.closeHandler(v -> closed.complete(w.closeStatusCode()));
          } catch (IllegalStateException closedBeforeHandlers) {
            // a server that closes at once (a closing hub) can have its close frame read before this callback runs:
            // the socket then refuses handlers, and the code is already known
            closed.complete(w.closeStatusCode());
          }
          return w;
        }));
    return new WsProbe(client, ws, messages, closed);
  }

  /** Sends a JSON message (object or raw text). */
  void send(Object message) {
    String text = message instanceof JsonObject o ? o.encode() : message.toString();
    PushServer.await(ws.writeTextMessage(text));
  }

  void subscribe(String... topics) {
    send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray(List.of((Object[]) topics))));
  }

  /** Subscribes from a cursor (a string). */
  void subscribeFrom(String cursor, String... topics) {
    send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray(List.of((Object[]) topics)))
        .put("from", cursor));
  }

  void subscribeFrom(long from, String... topics) {
    send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray(List.of((Object[]) topics)))
        .put("from", from));
  }

  /** The next message, waiting up to the test timeout. */
  JsonObject next() {
    try {
      JsonObject m = messages.poll(PushServer.TIMEOUT_S, TimeUnit.SECONDS);
      if (m == null) {
        throw new AssertionError("no message within " + PushServer.TIMEOUT_S + " s"
            + (closed.isDone() ? " (the socket was closed: " + closed.getNow(null) + ")" : " (the socket is open)"));
      }
      return m;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The next message, which must be of {@code type}. */
  JsonObject next(String type) {
    JsonObject m = next();
    assertThat(m.getString("type")).as("message %s", m.encode()).isEqualTo(type);
    return m;
  }

  /** The next {@code n} messages, all firings. */
  List<JsonObject> firings(int n) {
    List<JsonObject> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(next("fired"));
    }
    return out;
  }

  /** The seqs of the next firings up to and including {@code lastSeq}, skipping nothing else. */
  List<Long> seqsUntil(long lastSeq) {
    List<Long> seqs = new ArrayList<>();
    while (true) {
      JsonObject m = next("fired");
      long seq = m.getLong("seq");
      seqs.add(seq);
      if (seq >= lastSeq) {
        return seqs;
      }
    }
  }

  /**
   * Ping as a barrier: the server answers in order with what it sends, so every message before the pong was sent
   * before the ping was handled. Returns the messages before the pong.
   */
  List<JsonObject> untilPong() {
    send(new JsonObject().put("op", "ping"));
    List<JsonObject> before = new ArrayList<>();
    while (true) {
      JsonObject m = next();
      if ("pong".equals(m.getString("type"))) {
        return before;
      }
      before.add(m);
    }
  }

  Short awaitClose() {
    try {
      return closed.get(PushServer.TIMEOUT_S, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("socket not closed within " + PushServer.TIMEOUT_S + " s", e);
    }
  }

  @Override
  public void close() {
    try {
      client.close().await(5, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // best effort
    }
  }
}
