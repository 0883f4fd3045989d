package io.tickwheel.server.upgrade;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What an upgrade fixture holds and how it is read back over the public API: timers of every kind (once, fixed-rate,
 * fixed-delay, cron with a zone, DST policies, an end and jitter), a callback, a paused timer, a paused topic, and a
 * firing log written by fire-now. Every timer is due in 2035 (the 10-year horizon allows no later), so nothing fires while a fixture is written or
 * read until then.
 *
 * <p>{@link #write} builds that state through the API of a running server; {@link #read} answers what a server shows
 * of it (the listing, the topics, the webhook secret, every retained firing): a fixture's {@code expected.json} is
 * {@link #read} right after {@link #write}, and a later release must answer the same.
 */
final class UpgradeData {
  /** Where the fixtures live, from the server module's directory. */
  static final Path FIXTURES = Path.of("src", "test", "resources", "upgrade");
  /** How many firings {@link #write} records. */
  static final int FIRINGS = 4;

  private static final String FAR = "2035-01-01T00:00:00Z";
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  UpgradeData(String baseUrl) {
    this.base = baseUrl;
  }

  /** Creates the fixture's state (the server must be empty). */
  void write() throws Exception {
    put("once-far", new JsonObject().put("topic", "upgrade").put("at", FAR)
        .put("payload", new JsonObject().put("n", 1).put("text", "héllo").put("list", new JsonArray().add(1).add(2))));
    put("rate", new JsonObject().put("topic", "upgrade").put("kind", "fixed-rate").put("periodMs", 3_600_000)
        .put("at", FAR).put("maxFirings", 5).put("misfire", "fire-all"));
    put("delay", new JsonObject().put("topic", "upgrade").put("kind", "fixed-delay").put("periodMs", 60_000)
        .put("at", FAR).put("misfire", "skip"));
    put("cron-ams", new JsonObject().put("topic", "calendars").put("kind", "cron").put("cron", "30 2 * * *")
        .put("timeZone", "Europe/Amsterdam").put("at", "2034-12-31T00:00:00Z").put("dstGap", "skip")
        .put("dstOverlap", "twice").put("endAt", "2035-06-01T00:00:00Z").put("jitterMs", 30_000));
    put("cron-sec", new JsonObject().put("topic", "calendars").put("kind", "cron").put("cron", "0 0 9 ? * MON-FRI")
        .put("at", FAR));
    put("hook", new JsonObject().put("topic", "upgrade").put("at", FAR).put("callback", new JsonObject()
        .put("url", "https://hooks.example.com/tw").put("timeoutMs", 5_000).put("maxAttempts", 3)
        .put("minBackoffMs", 1_000).put("maxBackoffMs", 60_000)));
    put("a.b:c-d_e", new JsonObject().put("topic", "ids").put("at", FAR).put("payload", "text payload"));
    put("paused-one", new JsonObject().put("topic", "upgrade").put("kind", "fixed-rate").put("periodMs", 60_000)
        .put("at", FAR));
    post("/v1/timers/paused-one/pause", 200);
    put("held-1", new JsonObject().put("topic", "held").put("at", FAR));
    post("/v1/topics/held/pause", 200);
    put("fired", new JsonObject().put("topic", "firing").put("kind", "fixed-rate").put("periodMs", 3_600_000)
        .put("at", FAR).put("payload", new JsonObject().put("k", "v")));
    for (int i = 0; i < 3; i++) {
      post("/v1/timers/fired/fire", 200);
    }
    put("fired-once", new JsonObject().put("topic", "firing").put("at", FAR));
    post("/v1/timers/fired-once/fire", 200);
  }

  /** What the server shows of the fixture's state: {@code timers}, {@code topics}, {@code webhookSecret}, {@code firings}. */
  JsonObject read() throws Exception {
    JsonObject timers = get("/v1/timers?limit=1000");
    if (timers.getValue("next") != null) {
      throw new IllegalStateException("the fixture holds more timers than one page: " + timers.encode());
    }
    return new JsonObject()
        .put("timers", timers.getJsonArray("timers"))
        .put("topics", get("/v1/topics").getJsonArray("topics"))
        .put("webhookSecret", get("/v1/webhook-secret"))
        .put("firings", firings(FIRINGS));
  }

  private void put(String id, JsonObject timer) throws Exception {
    send(HttpRequest.newBuilder(URI.create(base + "/v1/timers/" + id))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(timer.encode())), 201);
  }

  private void post(String path, int status) throws Exception {
    send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{}")), status);
  }

  private JsonObject get(String path) throws Exception {
    return new JsonObject(send(HttpRequest.newBuilder(URI.create(base + path)).GET(), 200));
  }

  private String send(HttpRequest.Builder b, int status) throws IOException, InterruptedException {
    HttpRequest req = b.timeout(TIMEOUT).build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != status) {
      throw new IllegalStateException(req.method() + " " + req.uri() + " answered " + r.statusCode() + " "
          + r.body() + ", expected " + status);
    }
    return r.body();
  }

  /** Every retained firing from the start of the log, over a WebSocket subscription to every topic. */
  private JsonArray firings(int n) throws Exception {
    List<JsonObject> got = new ArrayList<>();
    CompletableFuture<JsonArray> done = new CompletableFuture<>();
    WebSocket.Listener listener = new WebSocket.Listener() {
      private final StringBuilder text = new StringBuilder();

      @Override
      public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
          JsonObject msg = new JsonObject(text.toString());
          text.setLength(0);
          if ("fired".equals(msg.getString("type"))) {
            got.add(msg);
            if (got.size() == n) {
              done.complete(new JsonArray(new ArrayList<>(got)));
            }
          } else if ("error".equals(msg.getString("type"))) {
            done.completeExceptionally(new IllegalStateException("subscription refused: " + msg.encode()));
          }
        }
        ws.request(1);
        return null;
      }

      @Override
      public void onError(WebSocket ws, Throwable error) {
        done.completeExceptionally(error);
      }
    };
    WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
        .buildAsync(URI.create(base.replaceFirst("^http", "ws") + "/v1/ws"), listener).get(20, TimeUnit.SECONDS);
    try {
      ws.sendText(new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("*")).put("from", 0)
          .encode(), true);
      return done.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } finally {
      ws.abort();
    }
  }
}
