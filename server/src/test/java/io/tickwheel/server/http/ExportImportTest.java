package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /v1/export} and {@code POST /v1/import} over real sockets, on the memory store. */
@ExtendWith(BlockedThreadGuard.class)
class ExportImportTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static HttpResponse<Buffer> importBody(ServerHarness s, String body, String type) {
    return s.checked(POST, "/v1/import", TestVertx.await(s.request(POST, "/v1/import")
        .putHeader("content-type", type).sendBuffer(Buffer.buffer(body))));
  }

  static HttpResponse<Buffer> importBody(ServerHarness s, String body) {
    return importBody(s, body, "application/x-ndjson");
  }

  static List<JsonObject> lines(String ndjson) {
    List<JsonObject> out = new ArrayList<>();
    for (String l : ndjson.split("\n")) {
      if (!l.isEmpty()) {
        out.add(new JsonObject(l));
      }
    }
    return out;
  }

  @Test
  void anExportImportedIntoAnotherServerGivesEveryTimerWithTheSameStateAndFields() {
    try (ServerHarness a = ServerHarness.start(vertx); ServerHarness b = ServerHarness.start(vertx)) {
      assertThat(a.send(POST, "/v1/timers", "{\"id\":\"once\",\"topic\":\"orders\",\"delayMs\":600000,"
          + "\"payload\":{\"order\":42,\"tags\":[\"x\",\"ü\"]}}").statusCode()).isEqualTo(201);
      assertThat(a.send(POST, "/v1/timers", "{\"id\":\"rate\",\"kind\":\"fixed-rate\",\"periodMs\":100,"
          + "\"maxFirings\":50,\"misfire\":\"skip\"}").statusCode()).isEqualTo(201);
      assertThat(a.send(POST, "/v1/timers", "{\"id\":\"cal\",\"kind\":\"cron\",\"cron\":\"30 2 * * 1-5\","
          + "\"timeZone\":\"America/New_York\",\"dstGap\":\"skip\",\"jitterMs\":60000,\"endAt\":4102444800000,"
          + "\"callback\":{\"url\":\"https://hooks.example.com/t\",\"timeoutMs\":2500,\"maxAttempts\":3,"
          + "\"minBackoffMs\":100,\"maxBackoffMs\":1000}}").statusCode()).isEqualTo(201);
      assertThat(a.send(POST, "/v1/timers", "{\"id\":\"held\",\"kind\":\"fixed-delay\",\"periodMs\":3600000}")
          .statusCode()).isEqualTo(201);
      assertThat(a.send(POST, "/v1/timers/held/pause").statusCode()).isEqualTo(200);
      // the fixed-rate one fires a few times, then is paused so its state stands still
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() ->
          a.send(GET, "/v1/timers/rate").bodyAsJsonObject().getLong("firings") >= 3);
      assertThat(a.send(POST, "/v1/timers/rate/pause").statusCode()).isEqualTo(200);

      HttpResponse<Buffer> exported = a.send(GET, "/v1/export");
      assertThat(exported.statusCode()).isEqualTo(200);
      assertThat(exported.getHeader("content-type")).isEqualTo("application/x-ndjson");
      List<JsonObject> ls = lines(exported.bodyAsString());
      assertThat(ls).extracting(l -> l.getString("id")).containsExactlyInAnyOrder("once", "rate", "cal", "held");
      for (JsonObject l : ls) {
        io.tickwheel.server.testing.OpenApiValidator.served().validateSchema("ExportedTimer", l.encode());
        assertThat(l.containsKey("upcoming")).isFalse();
      }

      HttpResponse<Buffer> imported = importBody(b, exported.bodyAsString());
      assertThat(imported.statusCode()).isEqualTo(200);
      assertThat(imported.bodyAsJsonObject()).isEqualTo(new JsonObject().put("imported", 4).put("failed", 0)
          .put("errors", new JsonArray()));
      for (String id : List.of("once", "rate", "cal", "held")) {
        JsonObject was = a.send(GET, "/v1/timers/" + id).bodyAsJsonObject();
        JsonObject now = b.send(GET, "/v1/timers/" + id).bodyAsJsonObject();
        assertThat(now).as(id).isEqualTo(was);
      }
      assertThat(b.send(GET, "/v1/timers/rate").bodyAsJsonObject().getLong("firings")).isGreaterThanOrEqualTo(3);
      // and only the topics asked for
      assertThat(lines(a.send(GET, "/v1/export?topic=orders,nothing").bodyAsString()))
          .extracting(l -> l.getString("id")).containsExactly("once");
      assertThat(a.send(GET, "/v1/export?topic=bad%20topic").statusCode()).isEqualTo(400);
      assertThat(lines(a.send(GET, "/v1/export?topic=nothing&topic=orders").bodyAsString()))
          .as("repeated lists add up").extracting(l -> l.getString("id")).containsExactly("once");
      HttpResponse<Buffer> empty = a.send(GET, "/v1/export?topic=");
      assertThat(empty.statusCode()).as("an empty name is no filter").isEqualTo(400);
      assertThat(empty.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("topic");
    }
  }

  @Test
  void aBadLineIsReportedByNumberAndNeverStopsTheOthersNorChangesAnything() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"keep\",\"delayMs\":600000,\"payload\":1}").statusCode())
          .isEqualTo(201);
      JsonObject before = s.send(GET, "/v1/timers/keep").bodyAsJsonObject();
      long due = System.currentTimeMillis() + 600_000;
      String tooLong = "{\"id\":\"big\",\"nextDueAt\":" + due + ",\"payload\":\"" + "x".repeat(ImportApi.MAX_LINE_BYTES)
          + "\"}";
      String body = String.join("\n",
          "{\"id\":\"g1\",\"nextDueAt\":" + due + ",\"firings\":0,\"createdAt\":5,\"paused\":false}",   // 1
          "not json",                                                                                     // 2
          "[1,2]",                                                                                        // 3
          "{\"id\":\"keep\",\"kind\":\"sometimes\",\"nextDueAt\":" + due + "}",                           // 4
          "",                                                                                             // 5
          tooLong,                                                                                        // 6
          "{\"id\":\"g2\",\"kind\":\"fixed-delay\",\"periodMs\":1000,\"delayMs\":1000,\"nextDueAt\":" + due
              + ",\"firings\":2}",                                                                      // 7
          "{\"id\":\"g3\",\"nextDueAt\":-4}",                                                             // 8
          "{\"id\":\"g1\",\"nextDueAt\":" + (due + 1) + "}\r",                                            // 9
          "{\"id\":\"g4\",\"nextDueAt\":" + due + ",\"nextDueAt\":" + (due + 5) + "}",                     // 10
          "{\"nextDueAt\":" + due + "}");                                                                 // 11, no end
      HttpResponse<Buffer> r = importBody(s, body);
      assertThat(r.statusCode()).isEqualTo(200);
      JsonObject report = r.bodyAsJsonObject();
      assertThat(report.getLong("imported")).isEqualTo(3);
      assertThat(report.getLong("failed")).isEqualTo(7);
      JsonArray errors = report.getJsonArray("errors");
      assertThat(errors.stream().map(e -> ((JsonObject) e).getLong("line")).toList())
          .containsExactly(2L, 3L, 4L, 6L, 8L, 10L, 11L);
      assertThat(errors.getJsonObject(2).getJsonObject("error").getString("field")).isEqualTo("kind");
      assertThat(errors.getJsonObject(2).getJsonObject("error").getString("message")).contains("sometimes");
      assertThat(errors.getJsonObject(3).getJsonObject("error").getString("code")).isEqualTo("payload_too_large");
      assertThat(errors.getJsonObject(4).getJsonObject("error").getString("field")).isEqualTo("nextDueAt");
      assertThat(errors.getJsonObject(5).getJsonObject("error").getString("field")).isEqualTo("nextDueAt");
      assertThat(errors.getJsonObject(5).getJsonObject("error").getString("message")).startsWith("duplicate key");
      assertThat(errors.getJsonObject(6).getJsonObject("error").getString("field")).isEqualTo("id");
      for (Object e : errors) {
        assertThat(((JsonObject) e).getJsonObject("error").getString("code")).isIn("invalid_argument",
            "payload_too_large");
      }
      // the bad line for "keep" changed nothing; the repeated id's last line won
      assertThat(s.send(GET, "/v1/timers/keep").bodyAsJsonObject()).isEqualTo(before);
      assertThat(s.send(GET, "/v1/timers/g1").bodyAsJsonObject().getLong("nextDueAt")).isEqualTo(due + 1);
      JsonObject g2 = s.send(GET, "/v1/timers/g2").bodyAsJsonObject();
      assertThat(g2.getLong("firings")).isEqualTo(2);
      assertThat(g2.getLong("delayMs")).isEqualTo(1000);
      assertThat(s.send(GET, "/v1/timers/big").statusCode()).isEqualTo(404);
      assertThat(s.send(GET, "/v1/timers/g4").statusCode()).as("a line that repeats a key").isEqualTo(404);
    }
  }

  @Test
  void theFirst100ErrorsAreListedAndAllCounted() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      String body = "{\"id\":\"x\"}\n".repeat(150) + "{\"id\":\"ok\",\"delayMs\":1000}\n";
      JsonObject report = importBody(s, body).bodyAsJsonObject();
      assertThat(report.getLong("failed")).isEqualTo(150);
      assertThat(report.getLong("imported")).isEqualTo(1);
      assertThat(report.getJsonArray("errors")).hasSize(ImportApi.MAX_ERRORS);
      assertThat(report.getJsonArray("errors").getJsonObject(99).getLong("line")).isEqualTo(100);
    }
  }

  @Test
  void anImportTakesNdjsonJsonAndCurlsDefaultTypeButNotText() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      String line = "{\"id\":\"t\",\"delayMs\":60000}\n";
      assertThat(importBody(s, line, "application/x-www-form-urlencoded").bodyAsJsonObject().getLong("imported"))
          .isEqualTo(1);
      assertThat(importBody(s, line, "application/json; charset=utf-8").bodyAsJsonObject().getLong("imported"))
          .isEqualTo(1);
      HttpResponse<Buffer> text = importBody(s, line, "text/plain");
      assertThat(text.statusCode()).isEqualTo(415);
      assertThat(text.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("application/x-ndjson");
    }
  }

  @Test
  void anOverdueImportedTimerFiresAtOnceAndAPeriodicOneFollowsItsMisfireRule() {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      long now = System.currentTimeMillis();
      String body = "{\"id\":\"late\",\"delayMs\":1000,\"nextDueAt\":" + (now - 60_000) + ",\"createdAt\":" + (now
          - 61_000) + "}\n{\"id\":\"rate\",\"kind\":\"fixed-rate\",\"periodMs\":10000,\"misfire\":\"skip\","
          + "\"nextDueAt\":" + (now - 35_000) + ",\"firings\":4}\n";
      assertThat(importBody(s, body).bodyAsJsonObject().getLong("imported")).isEqualTo(2);
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> s.send(GET, "/v1/timers/late").statusCode() == 404);
      Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() ->
          s.send(GET, "/v1/timers/rate").bodyAsJsonObject().getLong("nextDueAt") > now);
      JsonObject rate = s.send(GET, "/v1/timers/rate").bodyAsJsonObject();
      // skip: the missed due times are dropped, the grid is kept
      assertThat((rate.getLong("nextDueAt") - (now - 35_000)) % 10_000).isZero();
      assertThat(rate.getLong("firings")).isLessThanOrEqualTo(5);
    }
  }

  @Test
  void aSlowReaderHoldsTheExportBackTheStoreIsReadNoFurtherThanTheConnectionTakes() throws Exception {
    int n = 30_000;
    GatedStore store = new GatedStore();
    String payload = "\"" + "p".repeat(2_000) + "\"";
    long due = System.currentTimeMillis() + 3_600_000;
    List<Timer> all = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      all.add(new Timer("big-" + i, "bulk", Kind.ONCE, 3_600_000, 0, 0, Misfire.FIRE_ONCE, payload, 1, due + i, 0, 1));
    }
    TestVertx.await(store.memory().putAll(all));
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory"), store)) {
      HttpClient client = vertx.createHttpClient(new HttpClientOptions().setReceiveBufferSize(64 * 1024));
      AtomicLong bytes = new AtomicLong();
      Set<String> ids = new HashSet<>();
      StringBuilder partial = new StringBuilder();
      CompletableFuture<Void> ended = new CompletableFuture<>();
      CompletableFuture<HttpClientResponse> started = new CompletableFuture<>();
      vertx.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1")
          .setPort(s.port).setURI("/v1/export")).compose(req -> req.send()).onSuccess(res -> {
            res.pause();
            res.handler(chunk -> {
              bytes.addAndGet(chunk.length());
              partial.append(chunk.toString());
              int nl;
              while ((nl = partial.indexOf("\n")) >= 0) {
                ids.add(new JsonObject(partial.substring(0, nl)).getString("id"));
                partial.delete(0, nl + 1);
              }
            });
            res.endHandler(x -> ended.complete(null));
            started.complete(res);
          }).onFailure(started::completeExceptionally));
      HttpClientResponse res = started.get(10, TimeUnit.SECONDS);
      // the reader takes nothing: the store stops being read once the socket buffers and one batch are full
      Awaitility.await().atMost(10, TimeUnit.SECONDS).pollInterval(50, TimeUnit.MILLISECONDS)
          .until(() -> store.exported.get() > 0);
      long[] last = {-1};
      Awaitility.await().atMost(20, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS).until(() -> {
        long now = store.exported.get();
        boolean still = now == last[0];
        last[0] = now;
        return still;
      });
      long held = store.exported.get();
      // ~2 KiB a line: the kernel's loopback buffers hold some thousands; far from all 30,000 (60 MiB)
      assertThat(held).as("timers read from the store while the client read nothing").isLessThan(n / 3);
      vertx.runOnContext(v -> res.resume());
      ended.get(60, TimeUnit.SECONDS);
      assertThat(ids).hasSize(n);
      assertThat(store.exported.get()).isEqualTo(n);
      TestVertx.await(client.close());
    }
  }
}
