package io.tickwheel.server.crash;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket subscription to {@code /v1/ws} for every topic, resuming after the last seq the
 * {@link FiringLog} holds, feeding the log. The JDK client: no event loop shared with anything under test.
 */
final class FiringSocket implements WebSocket.Listener {

  private final FiringLog log;
  private final StringBuilder partial = new StringBuilder();
  private final CompletableFuture<Long> subscribed = new CompletableFuture<>();
  private volatile boolean aborted;
  private WebSocket ws;

  private FiringSocket(FiringLog log) {
    this.log = log;
  }

  /** Connects, subscribes {@code from} the log's last seq and waits for the {@code subscribed} reply. */
  static FiringSocket connect(HttpClient http, String baseUrl, FiringLog log) throws Exception {
    FiringSocket s = new FiringSocket(log);
    URI uri = URI.create(baseUrl.replaceFirst("^http", "ws") + "/v1/ws");
    s.ws = http.newWebSocketBuilder().buildAsync(uri, s).get(10, TimeUnit.SECONDS);
    JsonObject sub = new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("*"))
        .put("from", log.lastSeq());
    s.ws.sendText(sub.encode(), true).get(10, TimeUnit.SECONDS);
    try {
      s.subscribed.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new AssertionError("subscribing from seq " + log.lastSeq() + " failed: " + e.getCause().getMessage(), e);
    }
    return s;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      long now = System.currentTimeMillis();
      JsonObject m = new JsonObject(partial.toString());
      partial.setLength(0);
      switch (String.valueOf(m.getString("type"))) {
        case "fired" -> log.fired(m, now);
        case "subscribed" -> subscribed.complete(m.getLong("seq"));
        case "pong" -> { }
        default -> {
          log.violation("unexpected message " + m.encode());
          subscribed.completeExceptionally(new AssertionError("server answered the subscription with " + m.encode()));
        }
      }
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    if (!aborted) {
      log.violation("server closed the WebSocket: " + statusCode + " " + reason);
    }
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    subscribed.completeExceptionally(error);
  }

  /** The server is about to be killed: a dropped connection is expected from now on. */
  void expectDrop() {
    aborted = true;
  }

  /** The server was killed (or the test is done): drop the connection without complaint. */
  void abort() {
    aborted = true;
    ws.abort();
  }
}
