package io.tickwheel.client;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WebSocket peer over a real socket whose answers a test scripts: each message the client sends goes to
 * {@link #onMessage} with its socket and connection number (1 for the first). Records every message, the
 * connections and their Authorization headers. For the client's transport behaviours a real server cannot be made
 * to show on demand (answers out of order, a connection dropped mid-command, no answer at all).
 */
final class ScriptedServer implements AutoCloseable {

  interface Script {
    void handle(ServerWebSocket ws, int connection, JsonObject message);
  }

  final List<JsonObject> received = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  final AtomicInteger connections = new AtomicInteger();
  volatile Script onMessage = (ws, c, m) -> {};
  private final HttpServer server;

  ScriptedServer(Vertx vertx) throws Exception {
    this.server = vertx.createHttpServer().webSocketHandler(ws -> {
      int n = connections.incrementAndGet();
      authorizations.add(String.valueOf(ws.headers().get("Authorization")));
      ws.textMessageHandler(text -> {
        JsonObject m = new JsonObject(text);
        received.add(m);
        onMessage.handle(ws, n, m);
      });
    }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** The result the real server would send for a 2xx answer carrying timer {@code {"id":id, "firings":n}}. */
  static JsonObject ok(JsonObject command, int status, long firings) {
    String id = command.getString("id") != null ? command.getString("id")
        : command.getJsonObject("timer", new JsonObject()).getString("id");
    return new JsonObject().put("type", "result").put("ref", command.getString("ref")).put("status", status)
        .put("timer", new JsonObject().put("id", id).put("topic", "t").put("kind", "once").put("delayMs", 1000)
            .put("nextDueAt", 1L).put("firings", firings).put("createdAt", 1L));
  }

  @Override
  public void close() throws Exception {
    server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
