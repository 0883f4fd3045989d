package io.tickwheel.server.e2e;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A WebSocket subscriber to {@code /v1/ws} over a real socket (the JDK's client), recording every firing with the
 * local time it was received. It reads as fast as it can. Thread safe.
 */
final class Subscription implements WebSocket.Listener, AutoCloseable {

  /** A firing and when this client received it (epoch ms). */
  record Received(JsonObject firing, long receivedAt) {
    String id() {
      return firing.getString("id");
    }

    long seq() {
      return firing.getLong("seq");
    }

    long dueAt() {
      return firing.getLong("dueAt");
    }

    long firedAt() {
      return firing.getLong("firedAt");
    }
  }

  private final List<Received> firings = new ArrayList<>();
  private final StringBuilder partial = new StringBuilder();
  private final CompletableFuture<Void> subscribed = new CompletableFuture<>();
  private volatile int closeCode = -1;
  private final WebSocket ws;

  private Subscription(String baseUrl, String topics) throws Exception {
    URI uri = URI.create(baseUrl.replace("http://", "ws://") + "/v1/ws");
    ws = HttpClient.newHttpClient().newWebSocketBuilder()
        .header("Origin", baseUrl)
        .connectTimeout(Duration.ofSeconds(10))
        .buildAsync(uri, this)
        .get(10, TimeUnit.SECONDS);
    ws.sendText("{\"op\":\"subscribe\",\"topics\":[\"" + topics + "\"]}", true).get(10, TimeUnit.SECONDS);
    subscribed.get(10, TimeUnit.SECONDS);
  }

  /** Subscribes to {@code topic} ({@code *} for all) and waits for the server's {@code subscribed}. */
  static Subscription open(String baseUrl, String topic) throws Exception {
    return new Subscription(baseUrl, topic);
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    long now = System.currentTimeMillis();
    partial.append(data);
    if (last) {
      JsonObject msg = new JsonObject(partial.toString());
      partial.setLength(0);
      if ("fired".equals(msg.getString("type"))) {
        synchronized (firings) {
          firings.add(new Received(msg, now));   // waiters poll (see await): no wake-up per firing
        }
      } else if ("subscribed".equals(msg.getString("type"))) {
        subscribed.complete(null);
      }
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    closeCode = statusCode;
    synchronized (firings) {
      firings.notifyAll();
    }
    return null;
  }

  /** The server's close code, or -1 while open. */
  int closeCode() {
    return closeCode;
  }

  /** A copy of the firings received so far, in arrival order. */
  List<Received> firings() {
    synchronized (firings) {
      return new ArrayList<>(firings);
    }
  }

  /** The firings of timer {@code id} so far. */
  List<Received> of(String id) {
    return firings().stream().filter(r -> r.id().equals(id)).toList();
  }

  /** Waits until {@code count} received firings match, or the timeout; returns those matching. */
  List<Received> await(Predicate<Received> match, int count, long timeoutMs) throws InterruptedException {
    long end = System.currentTimeMillis() + timeoutMs;
    synchronized (firings) {
      while (true) {
        List<Received> m = firings.stream().filter(match).toList();
        long left = end - System.currentTimeMillis();
        if (m.size() >= count || left <= 0 || closeCode != -1) {
          return m;
        }
        firings.wait(Math.min(left, 50));
      }
    }
  }

  @Override
  public void close() {
    ws.abort();
  }
}
