package io.tickwheel.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WebSocket, batch touch ({@code POST /v1/timers/touch}) and batch create ({@code POST /v1/timers/batch}) peer over a real socket whose answers a test scripts: each message the client sends goes to
 * {@link #onMessage} with its socket and connection number (1 for the first). Records every message, the
 * connections and their Authorization headers. For the client's transport behaviours a real server cannot be made
 * to show on demand (answers out of order, a connection dropped mid-command, no answer at all).
 */
final class ScriptedServer implements AutoCloseable {

  interface Script {
    void handle(ServerWebSocket ws, int connection, JsonObject message);
  }

  /** Answers one {@code POST /v1/timers/touch}: its parsed body, and the request to answer (or leave hanging). */
  interface BatchScript {
    void handle(HttpServerRequest request, JsonObject body);
  }

  final List<JsonObject> received = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  final AtomicInteger connections = new AtomicInteger();
  volatile Script onMessage = (ws, c, m) -> {};
  /** Every batch touch body received, in order. */
  final List<JsonObject> batches = new CopyOnWriteArrayList<>();
  volatile BatchScript onBatch = (req, body) -> req.response().setStatusCode(200)
      .end(touched(body, id -> 200).encode());
  /** Every batch create ({@code POST /v1/timers/batch}) body received, in order. */
  final List<JsonObject> creates = new CopyOnWriteArrayList<>();
  /** Answers a batch create; by default 201 for every timer (the timer as sent, with server fields). */
  volatile BatchScript onCreate = (req, body) -> req.response().setStatusCode(200).end(created(body).encode());
  /** Answers any other HTTP request (reads, timer actions); by default 404. */
  volatile java.util.function.Consumer<HttpServerRequest> onOther = req -> req.response().setStatusCode(404).end();
  private final HttpServer server;
  /** Every connection accepted (HTTP and WebSocket), closed by {@link #close()} as a dying node's would be. */
  private final List<io.vertx.core.http.HttpConnection> open = new CopyOnWriteArrayList<>();
  private final List<ServerWebSocket> sockets = new CopyOnWriteArrayList<>();

  ScriptedServer(Vertx vertx) throws Exception {
    this.server = vertx.createHttpServer().connectionHandler(open::add).requestHandler(req -> {
      authorizations.add("http " + req.getHeader("Authorization"));
      boolean create = "/v1/timers/batch".equals(req.path());
      if (req.method() != HttpMethod.POST || !(create || "/v1/timers/touch".equals(req.path()))) {
        onOther.accept(req);
        return;
      }
      req.body().onSuccess(buf -> {
        JsonObject body = buf.toJsonObject();
        (create ? creates : batches).add(body);
        (create ? onCreate : onBatch).handle(req, body);
      });
    }).webSocketHandler(ws -> {
      int n = connections.incrementAndGet();
      sockets.add(ws);
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

  /**
   * The answer the real server gives a batch touch: per id, the status {@code statusOf} says; 200 items carry
   * {@code nextDueAt} = the 1-based number of {@code body} among the batches received (so a test sees which batch
   * answered a touch).
   */
  JsonObject touched(JsonObject body, java.util.function.ToIntFunction<String> statusOf) {
    long number = 0;
    for (int i = 0; i < batches.size(); i++) {
      if (batches.get(i) == body) {
        number = i + 1;
      }
    }
    JsonArray results = new JsonArray();
    for (Object id : body.getJsonArray("ids")) {
      int status = statusOf.applyAsInt((String) id);
      JsonObject r = new JsonObject().put("id", id).put("status", status);
      if (status == 200) {
        r.put("nextDueAt", number);
      } else {
        r.put("error", new JsonObject().put("code", status == 404 ? "not_found" : "unavailable")
            .put("message", status == 404 ? "no timer " + id : "the store is unavailable (not applied)"));
      }
      results.add(r);
    }
    return new JsonObject().put("results", results);
  }

  /** The answer the real server gives a batch create whose timers are all created. */
  static JsonObject created(JsonObject body) {
    JsonArray results = new JsonArray();
    for (Object t : body.getJsonArray("timers")) {
      JsonObject timer = ((JsonObject) t).copy().put("nextDueAt", 1L).put("firings", 0).put("createdAt", 1L);
      results.add(new JsonObject().put("status", 201).put("timer", timer));
    }
    return new JsonObject().put("results", results);
  }

  @Override
  public void close() throws Exception {
    List<Future<Void>> closing = new java.util.ArrayList<>();
    for (ServerWebSocket ws : sockets) {
      closing.add(ws.close());
    }
    for (io.vertx.core.http.HttpConnection c : open) {
      closing.add(c.close());
    }
    Future.join(closing).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
