package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every /v1 endpoint and the open ones, over real sockets against the server verticle (memory store, real clock). */
@ExtendWith(BlockedThreadGuard.class)
class TimersApiTest {

  static Vertx vertx;
  ServerHarness s;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void start() {
    s = ServerHarness.start(vertx);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  @Test
  void postCreatesATimerWith201AndLocationAndAnExistingIdGets409() {
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers",
        "{\"id\":\"job-1\",\"topic\":\"billing\",\"delayMs\":60000,\"payload\":{\"order\":42}}");
    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.getHeader("Location")).isEqualTo("/v1/timers/job-1");
    JsonObject t = r.bodyAsJsonObject();
    assertThat(t.getString("id")).isEqualTo("job-1");
    assertThat(t.getString("topic")).isEqualTo("billing");
    assertThat(t.getString("kind")).isEqualTo("once");
    assertThat(t.getJsonObject("payload")).isEqualTo(new JsonObject().put("order", 42));
    assertThat(t.getLong("nextDueAt") - t.getLong("createdAt")).isEqualTo(60000);
    assertThat(t.getLong("firings")).isZero();

    HttpResponse<Buffer> dup = s.send(POST, "/v1/timers", "{\"id\":\"job-1\",\"delayMs\":5}");
    assertThat(dup.statusCode()).isEqualTo(409);
    assertThat(dup.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("already_exists");
  }

  @Test
  void postWithoutAnIdGetsAGeneratedOne() {
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers", "{\"delayMs\":60000}");
    assertThat(r.statusCode()).isEqualTo(201);
    String id = r.bodyAsJsonObject().getString("id");
    assertThat(id).matches("[A-Za-z0-9._:-]{1,200}");
    assertThat(r.getHeader("Location")).isEqualTo("/v1/timers/" + id);
    assertThat(s.send(GET, "/v1/timers/" + id).statusCode()).isEqualTo(200);
  }

  @Test
  void putCreatesWith201ThenReplacesWith200() {
    HttpResponse<Buffer> c = s.send(PUT, "/v1/timers/p", "{\"delayMs\":60000}");
    assertThat(c.statusCode()).isEqualTo(201);
    HttpResponse<Buffer> r = s.send(PUT, "/v1/timers/p", "{\"id\":\"p\",\"kind\":\"fixed-rate\",\"periodMs\":1000}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getString("kind")).isEqualTo("fixed-rate");
    JsonObject got = s.send(GET, "/v1/timers/p").bodyAsJsonObject();
    assertThat(got.getLong("periodMs")).isEqualTo(1000);
    assertThat(got.getString("misfire")).isEqualTo("fire-once");
  }

  @Test
  void getAnswersTheTimerWithItsPayloadOr404() {
    s.send(POST, "/v1/timers", "{\"id\":\"g\",\"delayMs\":60000,\"payload\":[1,\"two\",null]}");
    HttpResponse<Buffer> r = s.send(GET, "/v1/timers/g");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonArray("payload")).isEqualTo(new JsonArray().add(1).add("two").addNull());
    HttpResponse<Buffer> missing = s.send(GET, "/v1/timers/nope");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("not_found");
  }

  @Test
  void deleteAnswers204ThenTheTimerIsGoneAnd404() {
    s.send(POST, "/v1/timers", "{\"id\":\"d\",\"delayMs\":60000}");
    assertThat(s.send(DELETE, "/v1/timers/d").statusCode()).isEqualTo(204);
    assertThat(s.send(GET, "/v1/timers/d").statusCode()).isEqualTo(404);
    assertThat(s.send(DELETE, "/v1/timers/d").statusCode()).isEqualTo(404);
  }

  @Test
  void touchRestartsTheCountdownAndTakesAnOptionalDelay() {
    JsonObject t = s.send(POST, "/v1/timers", "{\"id\":\"hb\",\"delayMs\":30000}").bodyAsJsonObject();
    long before = System.currentTimeMillis();
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers/hb/touch");
    assertThat(r.statusCode()).isEqualTo(200);
    long due = r.bodyAsJsonObject().getLong("nextDueAt");
    assertThat(due).isBetween(before + 30000, System.currentTimeMillis() + 30000);
    assertThat(due).isGreaterThanOrEqualTo(t.getLong("nextDueAt"));
    HttpResponse<Buffer> o = s.send(POST, "/v1/timers/hb/touch", "{\"delayMs\":90000}");
    assertThat(o.statusCode()).isEqualTo(200);
    assertThat(o.bodyAsJsonObject().getLong("nextDueAt")).isGreaterThanOrEqualTo(before + 90000);
    assertThat(s.send(POST, "/v1/timers/none/touch").statusCode()).isEqualTo(404);
    // the optional body sent as JSON null (as generated clients send a body they were given none for): no body
    HttpResponse<Buffer> nul = s.send(POST, "/v1/timers/hb/touch", "null");
    assertThat(nul.statusCode()).isEqualTo(200);
    assertThat(nul.bodyAsJsonObject().getString("id")).isEqualTo("hb");
    HttpResponse<Buffer> bad = s.send(POST, "/v1/timers/hb/touch", "{\"periodMs\":5}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("periodMs");
  }

  @Test
  void listPagesByNextDueAtWithACursorAndFiltersByTopic() {
    for (int i = 0; i < 25; i++) {
      s.send(POST, "/v1/timers", new JsonObject().put("id", "l" + i).put("topic", i % 2 == 0 ? "even" : "odd")
          .put("delayMs", 100_000 - i * 1000));
    }
    List<String> ids = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      HttpResponse<Buffer> r = s.send(GET, "/v1/timers?limit=10" + (cursor == null ? "" : "&cursor=" + cursor));
      assertThat(r.statusCode()).isEqualTo(200);
      JsonObject page = r.bodyAsJsonObject();
      page.getJsonArray("timers").forEach(o -> ids.add(((JsonObject) o).getString("id")));
      cursor = page.getString("next");
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    List<String> expected = new ArrayList<>();
    for (int i = 24; i >= 0; i--) {
      expected.add("l" + i);
    }
    assertThat(ids).containsExactlyElementsOf(expected);
    JsonObject even = s.send(GET, "/v1/timers?topic=even&limit=1000").bodyAsJsonObject();
    assertThat(even.getJsonArray("timers")).hasSize(13);
    assertThat(even.getValue("next")).isNull();
    assertThat(s.send(GET, "/v1/timers").bodyAsJsonObject().getJsonArray("timers")).hasSize(25);
    assertThat(s.send(GET, "/v1/timers?limit=1001").statusCode()).isEqualTo(400);
    assertThat(s.send(GET, "/v1/timers?limit=0").statusCode()).isEqualTo(400);
    assertThat(s.send(GET, "/v1/timers?limit=abc").bodyAsJsonObject().getJsonObject("error").getString("field"))
        .isEqualTo("limit");
    assertThat(s.send(GET, "/v1/timers?cursor=zzz").bodyAsJsonObject().getJsonObject("error").getString("field"))
        .isEqualTo("cursor");
    assertThat(s.send(GET, "/v1/timers?topic=a%20b").statusCode()).isEqualTo(400);
  }

  @Test
  void idsOfOnlyDotsAreRefusedWith400NamingTheIdWhereverAnIdIsTaken() {
    assertThat(error(s.send(POST, "/v1/timers", "{\"id\":\"..\",\"delayMs\":60000}"), 400)).isEqualTo("id");
    assertThat(error(s.send(PUT, "/v1/timers/...", "{\"delayMs\":60000}"), 400)).isEqualTo("id");
    assertThat(error(s.send(POST, "/v1/timers/.../touch", "{}"), 400)).isEqualTo("id");
    assertThat(error(s.send(GET, "/v1/timers/..."), 400)).isEqualTo("id");
    assertThat(error(s.send(POST, "/v1/timers/touch", "{\"ids\":[\"a\",\".\"]}"), 400)).isEqualTo("ids[1]");
    HttpResponse<Buffer> batch = s.send(POST, "/v1/timers/batch",
        "{\"timers\":[{\"id\":\".\",\"delayMs\":1},{\"id\":\"a.\",\"delayMs\":60000}]}");
    assertThat(batch.statusCode()).isEqualTo(200);
    JsonArray results = batch.bodyAsJsonObject().getJsonArray("results");
    assertThat(results.getJsonObject(0).getInteger("status")).isEqualTo(400);
    assertThat(results.getJsonObject(0).getJsonObject("error").getString("field")).isEqualTo("id");
    assertThat(results.getJsonObject(1).getInteger("status")).isEqualTo(201);
    assertThat(s.send(GET, "/v1/timers").bodyAsJsonObject().getJsonArray("timers")).hasSize(1);
  }

  /** The {@code error.field} of an answer with {@code status}. */
  private static String error(HttpResponse<Buffer> r, int status) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
    return r.bodyAsJsonObject().getJsonObject("error").getString("field");
  }

  @Test
  void batchCreatesTheValidTimersAndAnswersEveryItemInOrder() {
    s.send(POST, "/v1/timers", "{\"id\":\"exists\",\"delayMs\":60000}");
    JsonArray timers = new JsonArray()
        .add(new JsonObject().put("id", "b1").put("delayMs", 60000))
        .add(new JsonObject().put("id", "b2").put("delayMs", -1))
        .add(new JsonObject().put("id", "exists").put("delayMs", 1))
        .add("not an object")
        .add(new JsonObject().put("delayMs", 60000).put("topic", "t"))
        .add(new JsonObject().put("id", "b1").put("delayMs", 1));
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers/batch", new JsonObject().put("timers", timers));
    assertThat(r.statusCode()).isEqualTo(200);
    JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
    assertThat(results).hasSize(6);
    assertThat(results.getJsonObject(0).getInteger("status")).isEqualTo(201);
    assertThat(results.getJsonObject(0).getJsonObject("timer").getString("id")).isEqualTo("b1");
    assertThat(results.getJsonObject(1).getInteger("status")).isEqualTo(400);
    assertThat(results.getJsonObject(1).getJsonObject("error").getString("field")).isEqualTo("delayMs");
    assertThat(results.getJsonObject(2).getInteger("status")).isEqualTo(409);
    assertThat(results.getJsonObject(3).getInteger("status")).isEqualTo(400);
    assertThat(results.getJsonObject(4).getInteger("status")).isEqualTo(201);
    assertThat(results.getJsonObject(5).getInteger("status")).isEqualTo(409);
    assertThat(s.send(GET, "/v1/timers/b1").statusCode()).isEqualTo(200);
    assertThat(s.send(GET, "/v1/timers/b2").statusCode()).isEqualTo(404);
  }

  @Test
  void batchOfMoreThanTenThousandTimersIsRefusedWith400() {
    JsonArray timers = new JsonArray();
    for (int i = 0; i < 10_001; i++) {
      timers.add(new JsonObject().put("delayMs", 1));
    }
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers/batch", new JsonObject().put("timers", timers));
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("timers");
    assertThat(s.send(GET, "/v1/timers").bodyAsJsonObject().getJsonArray("timers")).isEmpty();
  }

  @Test
  void aTimerFiresOnTimeAndItsFiringIsStreamedOverServerSentEvents() throws Exception {
    HttpClient http = vertx.createHttpClient();
    CompletableFuture<String> firing = new CompletableFuture<>();
    StringBuilder got = new StringBuilder();
    CompletableFuture<Void> subscribed = new CompletableFuture<>();
    CompletableFuture<HttpClientResponse> head = new CompletableFuture<>();
    http.request(new RequestOptions().setPort(s.port).setHost("127.0.0.1").setURI("/v1/events?topic=alarms"))
        .compose(req -> req.send())
        .onSuccess(res -> {
          head.complete(res);
          subscribed.complete(null);
          res.handler(b -> {
            got.append(b.toString());
            int i = got.indexOf("\"type\":\"fired\"");
            if (i >= 0) {
              firing.complete(got.toString());
            }
          });
        })
        .onFailure(subscribed::completeExceptionally);
    subscribed.get(10, TimeUnit.SECONDS);
    long created = System.currentTimeMillis();
    s.send(POST, "/v1/timers", "{\"id\":\"wake\",\"topic\":\"alarms\",\"delayMs\":200,\"payload\":\"hi\"}");
    String text = firing.get(10, TimeUnit.SECONDS);
    validateStream(GET, "/v1/events", head.get(10, TimeUnit.SECONDS), text);
    String data = text.substring(text.indexOf("data:") + 5, text.indexOf('\n', text.indexOf("data:"))).trim();
    JsonObject f = new JsonObject(data);
    assertThat(f.getString("id")).isEqualTo("wake");
    assertThat(f.getLong("seq")).isEqualTo(1);
    assertThat(f.getString("payload")).isEqualTo("hi");
    assertThat(f.getLong("firedAt")).isGreaterThanOrEqualTo(f.getLong("dueAt"));
    assertThat(f.getLong("dueAt")).isBetween(created + 200, System.currentTimeMillis());
    assertThat(f.getLong("firedAt") - f.getLong("dueAt")).isLessThan(1000);   // a window, not an instant
    assertThat(s.send(GET, "/v1/timers/wake").statusCode()).isEqualTo(404);
    http.close();
  }

  @Test
  void wheelSnapshotShowsLevelsOccupancyAndStats() {
    s.send(POST, "/v1/timers", "{\"id\":\"w1\",\"delayMs\":5000}");
    s.send(POST, "/v1/timers", "{\"id\":\"w2\",\"delayMs\":86400000}");
    HttpResponse<Buffer> r = s.send(GET, "/v1/wheel");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject w = r.bodyAsJsonObject();
    assertThat(w.getLong("tickMs")).isEqualTo(10);
    assertThat(w.getInteger("pending")).isEqualTo(2);
    assertThat(w.getLong("now")).isPositive();
    assertThat(w.getLong("wheelTimeMs")).isPositive().isLessThanOrEqualTo(w.getLong("now"));
    assertThat(w.getLong("firedTotal")).isZero();
    JsonArray levels = w.getJsonArray("levels");
    int total = 0;
    for (int i = 0; i < levels.size(); i++) {
      JsonObject l = levels.getJsonObject(i);
      assertThat(l.getInteger("level")).isEqualTo(i);
      assertThat(l.getInteger("slots")).isEqualTo(64);
      assertThat(l.getJsonArray("occupancy")).hasSize(64);
      assertThat(l.getLong("spanMs")).isEqualTo(10L << (6 * i));
      for (Object c : l.getJsonArray("occupancy")) {
        total += (Integer) c;
      }
    }
    assertThat(total).isEqualTo(2);
    assertThat(w.getJsonObject("lateness").fieldNames()).contains("p50Ms", "p99Ms", "maxMs");
    assertThat(r.body().length()).isLessThan(16 * 1024);
  }

  @Test
  void wheelStreamSendsWheelEventsWithStats() throws Exception {
    HttpClient http = vertx.createHttpClient();
    CompletableFuture<String> two = new CompletableFuture<>();
    CompletableFuture<HttpClientResponse> head = new CompletableFuture<>();
    StringBuilder got = new StringBuilder();
    http.request(new RequestOptions().setPort(s.port).setHost("127.0.0.1").setURI("/v1/wheel/stream"))
        .compose(req -> req.send())
        .onSuccess(res -> {
          head.complete(res);
          res.handler(b -> {
            got.append(b.toString());
            if (got.toString().split("event: wheel").length > 2) {
              two.complete(got.toString());
            }
          });
        });
    HttpClientResponse res = head.get(10, TimeUnit.SECONDS);
    assertThat(res.getHeader("content-type")).startsWith("text/event-stream");
    String text = two.get(10, TimeUnit.SECONDS);
    validateStream(GET, "/v1/wheel/stream", res, text);
    int d = text.indexOf("data:");
    JsonObject ev = new JsonObject(text.substring(d + 5, text.indexOf('\n', d)).trim());
    assertThat(ev.getJsonObject("stats").fieldNames()).contains("firingsPerSec", "latenessP50Ms", "latenessP99Ms",
        "subscribers", "storeLatencyP50Ms", "storeLatencyP99Ms");
    assertThat(ev.getJsonArray("levels")).isNotEmpty();
    http.close();
  }

  @Test
  void healthMetricsRootAndOpenApiAreServed() {
    HttpResponse<Buffer> h = s.send(GET, "/health");
    assertThat(h.statusCode()).isEqualTo(200);
    assertThat(h.bodyAsJsonObject().getString("status")).isEqualTo("up");
    assertThat(h.bodyAsJsonObject().getString("store")).isEqualTo("memory");
    s.send(POST, "/v1/timers", "{\"delayMs\":60000}");
    String m = s.send(GET, "/metrics").bodyAsString();
    assertThat(m).contains("tickwheel_pending_timers 1.0", "tickwheel_firings_total", "tickwheel_firing_lateness_seconds_bucket",
        "tickwheel_http_requests_seconds_bucket", "tickwheel_store_op_seconds_bucket", "tickwheel_subscribers");
    // the JVM's own meters: what explains a late firing the wheel itself did not cause (a GC pause, the JIT)
    assertThat(m).contains("jvm_gc_memory_allocated_bytes_total", "jvm_compilation_time_ms_total", "process_cpu_time_ns_total",
        "jvm_memory_used_bytes{area=\"heap\"", "jvm_threads_live_threads", "process_uptime_seconds");
    HttpResponse<Buffer> root = s.checked(GET, "/", TestVertx.await(s.client.get("/").followRedirects(false).send()));
    assertThat(root.statusCode()).isEqualTo(302);
    assertThat(root.getHeader("Location")).isEqualTo("/console/");
    HttpResponse<Buffer> bare = s.checked(GET, "/console", TestVertx.await(s.client.get("/console").followRedirects(false).send()));
    assertThat(bare.statusCode()).isEqualTo(302);
    assertThat(bare.getHeader("Location")).isEqualTo("/console/");
    HttpResponse<Buffer> console = s.checked(GET, "/console/", TestVertx.await(s.client.get("/console/").followRedirects(false).send()));
    assertThat(console.statusCode()).as("the console's index, not a redirect to itself").isEqualTo(200);
    assertThat(console.getHeader("Content-Type")).startsWith("text/html");
    HttpResponse<Buffer> api = s.send(GET, "/openapi.yaml");
    assertThat(api.statusCode()).isEqualTo(200);
    assertThat(api.bodyAsString()).startsWith("openapi: 3").contains("/v1/timers/{id}/touch", "/v1/timers/batch",
        "/v1/wheel/stream", "/v1/events", "/health");
  }

  /** Validates a streamed answer: its status, headers and the part of its body read so far. */
  private static void validateStream(HttpMethod m, String uri, HttpClientResponse res, String bodySoFar) {
    Map<String, List<String>> headers = new HashMap<>();
    res.headers().names().forEach(n -> headers.put(n, res.headers().getAll(n)));
    OpenApiValidator.served().validate(m, uri, res.statusCode(), headers, bodySoFar.getBytes(StandardCharsets.UTF_8));
  }

  // a query parameter a /v1 route does not take is refused, naming it, and the request changes nothing

  private static JsonObject queryRefusal(HttpResponse<Buffer> r) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(400);
    JsonObject e = r.bodyAsJsonObject().getJsonObject("error");
    assertThat(e.getString("code")).isEqualTo("invalid_argument");
    return e;
  }

  /** {@link #queryRefusal} naming {@code field} with {@code message}. */
  private static void refused(HttpResponse<Buffer> r, String field, String message) {
    JsonObject e = queryRefusal(r);
    assertThat(e.getString("field")).isEqualTo(field);
    assertThat(e.getString("message")).isEqualTo(message);
  }

  @Test
  void aMisspeltListParameterIsRefusedNamingItAndWhatTheRouteTakes() {
    refused(s.send(GET, "/v1/timers?topics=billing"), "topics",
        "unknown query parameter 'topics' (GET /v1/timers takes cursor, limit, topic)");
    assertThat(s.send(GET, "/v1/timers?topic=billing&limit=5&cursor=").statusCode()).isEqualTo(200);
    assertThat(queryRefusal(s.send(GET, "/v1/events?topics=billing")).getString("field")).isEqualTo("topics");
    assertThat(queryRefusal(s.send(GET, "/v1/deliveries?state=dead&page=2")).getString("field")).isEqualTo("page");
  }

  @Test
  void aRepeatedKeyAnywhereInABodyIsRefusedNamingItAndNothingIsWritten() {
    refused(s.send(POST, "/v1/timers", "{\"id\":\"dk-1\",\"delayMs\":1000,\"delayMs\":600000}"), "delayMs",
        "duplicate key 'delayMs' at /delayMs (an object takes each key once)");
    JsonObject e = queryRefusal(s.send(POST, "/v1/timers", "{\"id\":\"dk-1\",\"delayMs\":600000,\"payload\":{\"a\":1,\"a\":2}}"));
    assertThat(e.getString("field")).isEqualTo("payload");
    assertThat(e.getString("message")).contains("'a' at /payload/a");
    e = queryRefusal(s.send(POST, "/v1/timers/batch",
        "{\"timers\":[{\"id\":\"dk-2\",\"delayMs\":600000},{\"id\":\"dk-3\",\"delayMs\":600000,\"id\":\"dk-4\"}]}"));
    assertThat(e.getString("field")).isEqualTo("timers");
    assertThat(e.getString("message")).contains("'id' at /timers/1/id");
    assertThat(s.send(PUT, "/v1/timers/dk-5", "{\"delayMs\":600000,\"topic\":\"a\",\"topic\":\"b\"}").statusCode())
        .isEqualTo(400);
    for (String id : List.of("dk-1", "dk-2", "dk-3", "dk-4", "dk-5")) {
      assertThat(s.send(GET, "/v1/timers/" + id).statusCode()).as(id).isEqualTo(404);
    }
    JsonObject created = s.send(POST, "/v1/timers", "{\"id\":\"dk-6\",\"delayMs\":600000}").bodyAsJsonObject();
    assertThat(queryRefusal(s.send(POST, "/v1/timers/dk-6/touch", "{\"delayMs\":1,\"delayMs\":2}")).getString("field"))
        .isEqualTo("delayMs");
    assertThat(s.send(GET, "/v1/timers/dk-6").bodyAsJsonObject()).as("not touched").isEqualTo(created);
  }

  @Test
  void aBodyOnARouteThatTakesNoneIsRefusedAndNothingIsDone() {
    JsonObject created = s.send(POST, "/v1/timers", "{\"id\":\"nb-1\",\"topic\":\"nb\",\"delayMs\":600000}")
        .bodyAsJsonObject();
    JsonObject e = queryRefusal(s.send(DELETE, "/v1/timers/nb-1", "{\"ifGeneration\":3}"));
    assertThat(e.getString("message")).isEqualTo("DELETE /v1/timers/:id takes no request body, was sent one "
        + "(Content-Length 18)");
    assertThat(queryRefusal(s.send(POST, "/v1/timers/nb-1/fire", "{\"payload\":1}")).getString("message"))
        .startsWith("POST /v1/timers/:id/fire takes no request body");
    queryRefusal(s.send(POST, "/v1/timers/nb-1/pause", "{}"));
    queryRefusal(s.send(POST, "/v1/topics/nb/pause", "{\"until\":5}"));
    queryRefusal(s.send(GET, "/v1/timers/nb-1", "{}"));
    assertThat(s.send(GET, "/v1/timers/nb-1").bodyAsJsonObject()).as("not deleted, fired nor paused")
        .isEqualTo(created);
    assertThat(s.send(GET, "/v1/topics?topic=nb").bodyAsJsonObject().getJsonArray("topics").getJsonObject(0)
        .getBoolean("paused")).isFalse();
    assertThat(s.send(DELETE, "/v1/timers/nb-1", "").statusCode()).as("an empty body").isEqualTo(204);
  }

  @Test
  void headAnswersAsGetWithoutTheBodyExceptOnStreams() throws Exception {
    s.send(POST, "/v1/timers", "{\"id\":\"hd-1\",\"delayMs\":600000}");
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.util.function.Function<String, java.net.http.HttpResponse<byte[]>> head = path -> {
      try {
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(s.url() + path))
            .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
            java.net.http.HttpResponse.BodyHandlers.ofByteArray());
      } catch (Exception e) {
        throw new AssertionError(path, e);
      }
    };
    for (String path : List.of("/health", "/metrics", "/openapi.yaml", "/console/", "/v1/timers/hd-1",
        "/v1/timers?limit=1", "/v1/wheel")) {
      java.net.http.HttpResponse<byte[]> r = head.apply(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.body()).as(path).isEmpty();
      assertThat(r.headers().firstValue("content-type")).as(path)
          .isEqualTo(java.util.Optional.ofNullable(s.send(GET, path).getHeader("content-type")));
    }
    assertThat(head.apply("/v1/timers/no-such").statusCode()).isEqualTo(404);
    assertThat(head.apply("/v1/timers?bogus=1").statusCode()).isEqualTo(400);
    for (String path : List.of("/v1/events", "/v1/wheel/stream", "/v1/export")) {
      java.net.http.HttpResponse<byte[]> r = head.apply(path);
      assertThat(r.statusCode()).as(path).isEqualTo(405);
      assertThat(r.headers().firstValue("allow")).as(path).contains("GET");
    }
    assertThat(s.send(GET, "/v1/timers/hd-1").statusCode()).isEqualTo(200);
  }

  @Test
  void aSingleValuedParameterGivenTwiceIsRefusedAndTopicListsAddUp() {
    refused(s.send(GET, "/v1/timers?limit=1&topic=billing&limit=1000"), "limit",
        "query parameter 'limit' takes one value, was given 2 times (GET /v1/timers)");
    assertThat(queryRefusal(s.send(GET, "/v1/deliveries?state=dead&state=pending")).getString("field"))
        .isEqualTo("state");
    assertThat(queryRefusal(s.send(GET, "/v1/topics?after=a&after=b")).getString("field")).isEqualTo("after");
    assertThat(queryRefusal(s.send(GET, "/v1/events?from=1&from=2")).getString("field")).isEqualTo("from");
    assertThat(s.send(GET, "/v1/timers?limit=5").statusCode()).isEqualTo(200);
  }

  @Test
  void aWriteWithAQueryParameterIsRefusedAndWritesNothing() {
    assertThat(queryRefusal(s.send(POST, "/v1/timers?dryRun=true", "{\"id\":\"q-1\",\"topic\":\"t\",\"delayMs\":60000}"))
        .getString("message")).isEqualTo("unknown query parameter 'dryRun' (POST /v1/timers takes none)");
    assertThat(s.send(GET, "/v1/timers/q-1").statusCode()).isEqualTo(404);

    JsonObject created = s.send(POST, "/v1/timers", "{\"id\":\"q-1\",\"topic\":\"t\",\"delayMs\":60000}")
        .bodyAsJsonObject();
    assertThat(queryRefusal(s.send(POST, "/v1/timers/q-1/touch?delayMs=1000")).getString("field")).isEqualTo("delayMs");
    assertThat(queryRefusal(s.send(PUT, "/v1/timers/q-1?x=1", "{\"topic\":\"u\",\"delayMs\":5000}")).getString("field"))
        .isEqualTo("x");
    assertThat(queryRefusal(s.send(DELETE, "/v1/timers/q-1?force=1")).getString("field")).isEqualTo("force");
    assertThat(queryRefusal(s.send(POST, "/v1/topics/t/pause?all=1")).getString("field")).isEqualTo("all");
    assertThat(s.send(GET, "/v1/timers/q-1").bodyAsJsonObject()).as("untouched, unreplaced, not deleted")
        .isEqualTo(created);
    assertThat(s.send(GET, "/v1/topics?topic=t").bodyAsJsonObject().getJsonArray("topics").getJsonObject(0)
        .getBoolean("paused")).isFalse();
  }

  @Test
  void routesWithoutParametersRefuseAnyAndOtherPathsAreLeftToTheRouter() {
    assertThat(queryRefusal(s.send(GET, "/v1/wheel?x=1")).getString("message"))
        .isEqualTo("unknown query parameter 'x' (GET /v1/wheel takes none)");
    assertThat(s.send(GET, "/v1/wheel?").statusCode()).as("an empty query").isEqualTo(200);
    assertThat(s.send(GET, "/v1/no-such-route?x=1").statusCode()).isEqualTo(404);
    assertThat(s.send(GET, "/health?x=1").statusCode()).as("outside /v1: not checked").isEqualTo(200);
  }
}
