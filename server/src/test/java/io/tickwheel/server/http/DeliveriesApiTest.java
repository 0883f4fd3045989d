package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import com.standardwebhooks.Webhook;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /v1/deliveries} over real sockets: the real server (memory store, system clock, private addresses allowed)
 * firing timers with callbacks to a receiver on loopback; every answer checked against the OpenAPI document.
 */
@ExtendWith(BlockedThreadGuard.class)
class DeliveriesApiTest {

  static Vertx vertx;
  ServerHarness s;
  HttpServer receiver;
  int receiverPort;
  final AtomicInteger answer = new AtomicInteger(500);
  final List<JsonObject> got = new ArrayList<>();
  final List<Map<String, List<String>>> gotHeaders = new ArrayList<>();

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
    receiver = TestVertx.await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      synchronized (got) {
        got.add(new JsonObject(b.toString()));
        Map<String, List<String>> h = new java.util.HashMap<>();
        for (String k : List.of(WebhookSigner.ID, WebhookSigner.TIMESTAMP, WebhookSigner.SIGNATURE)) {
          h.put(k, List.of(req.getHeader(k)));
        }
        h.put("body", List.of(b.toString()));
        gotHeaders.add(h);
      }
      req.response().setStatusCode(answer.get()).end();
    })).listen(0, "127.0.0.1"));
    receiverPort = receiver.actualPort();
    ServerConfig cfg = ServerConfig.defaults().withStore("memory")
        .withWebhooks(WebhookOptions.parse(null, true, List.of()));
    s = ServerHarness.start(vertx, cfg, new MemoryTimerStore());
  }

  @AfterEach
  void stop() {
    s.close();
    TestVertx.await(receiver.close());
  }

  JsonObject awaitDelivery(String query, java.util.function.Predicate<JsonObject> p) {
    java.util.concurrent.atomic.AtomicReference<JsonObject> found = new java.util.concurrent.atomic.AtomicReference<>();
    Awaitility.await("a delivery of " + query).atMost(Duration.ofSeconds(15)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
          HttpResponse<Buffer> r = s.send(GET, "/v1/deliveries" + query);
          assertThat(r.statusCode()).isEqualTo(200);
          for (Object o : r.bodyAsJsonObject().getJsonArray("deliveries")) {
            if (p.test((JsonObject) o)) {
              found.set((JsonObject) o);
              return;
            }
          }
          throw new AssertionError("no such delivery in " + r.bodyAsString());
        });
    return found.get();
  }

  @Test
  void aFailingCallbackGoesDeadIsListedAndARetryDeliversItWithTheSameSignedWebhookId() throws Exception {
    String url = "http://127.0.0.1:" + receiverPort + "/hook";
    assertThat(s.send(POST, "/v1/timers", "{\"id\":\"cb1\",\"delayMs\":0,\"payload\":{\"k\":1},\"callback\":{\"url\":\""
        + url + "\",\"timeoutMs\":30000,\"maxAttempts\":2,\"minBackoffMs\":100,\"maxBackoffMs\":200}}").statusCode())
        .isEqualTo(201);
    JsonObject dead = awaitDelivery("?state=dead", d -> d.getString("timerId").equals("cb1"));
    String id = dead.getString("id");
    assertThat(dead.getString("url")).isEqualTo(url);
    assertThat(dead.getJsonArray("attempts")).hasSize(2);
    assertThat(dead.getJsonArray("attempts").getJsonObject(1).getInteger("status")).isEqualTo(500);
    assertThat(dead.getJsonObject("firing").getJsonObject("payload")).isEqualTo(new JsonObject().put("k", 1));
    assertThat(dead.containsKey("nextAttemptAt")).isFalse();

    HttpResponse<Buffer> one = s.send(GET, "/v1/deliveries/" + id);
    assertThat(one.statusCode()).isEqualTo(200);
    assertThat(one.bodyAsJsonObject()).isEqualTo(dead);

    answer.set(200);
    HttpResponse<Buffer> retried = s.send(POST, "/v1/deliveries/" + id + "/retry");
    assertThat(retried.statusCode()).isEqualTo(202);
    assertThat(retried.bodyAsJsonObject().getString("state")).isEqualTo("pending");
    JsonObject ok = awaitDelivery("?state=succeeded", d -> d.getString("id").equals(id));
    assertThat(ok.getJsonArray("attempts")).hasSize(3);
    assertThat(s.send(POST, "/v1/deliveries/" + id + "/retry").statusCode()).as("not dead").isEqualTo(409);

    String secret = s.send(GET, "/v1/webhook-secret").bodyAsJsonObject().getString("secret");
    Webhook verifier = new Webhook(secret);
    synchronized (got) {
      assertThat(gotHeaders).hasSize(3);
      for (Map<String, List<String>> h : gotHeaders) {
        assertThat(h.get(WebhookSigner.ID)).containsExactly(id);
        String body = h.get("body").get(0);
        assertThatNoException().isThrownBy(() -> verifier.verify(body, h));
      }
    }
    assertThat(s.send(GET, "/metrics").bodyAsString())
        .contains("tickwheel_delivery_attempts_total{outcome=\"5xx\"} 2.0")
        .contains("tickwheel_delivery_attempts_total{outcome=\"2xx\"} 1.0")
        .contains("tickwheel_delivery_attempt_latency_seconds_bucket{outcome=\"2xx\"");
  }

  @Test
  void listingPagesWithTheCursorAndFiltersByState() throws Exception {
    answer.set(204);
    String url = "http://127.0.0.1:" + receiverPort + "/";
    for (int i = 0; i < 5; i++) {
      s.send(POST, "/v1/timers", "{\"delayMs\":0,\"callback\":{\"url\":\"" + url + "\"}}");
    }
    Awaitility.await("5 deliveries succeeded").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
        .until(() -> s.send(GET, "/v1/deliveries?state=succeeded").bodyAsJsonObject().getJsonArray("deliveries")
            .size() >= 5);
    JsonObject p1 = s.send(GET, "/v1/deliveries?limit=2").bodyAsJsonObject();
    assertThat(p1.getJsonArray("deliveries")).hasSize(2);
    JsonObject p2 = s.send(GET, "/v1/deliveries?limit=2&cursor=" + p1.getString("next")).bodyAsJsonObject();
    JsonObject p3 = s.send(GET, "/v1/deliveries?limit=2&cursor=" + p2.getString("next")).bodyAsJsonObject();
    assertThat(p3.getJsonArray("deliveries")).hasSize(1);
    assertThat(p3.getValue("next")).isNull();
    List<String> ids = new ArrayList<>();
    for (JsonObject p : List.of(p1, p2, p3)) {
      p.getJsonArray("deliveries").forEach(o -> ids.add(((JsonObject) o).getString("id")));
    }
    assertThat(ids).doesNotHaveDuplicates().hasSize(5);
    assertThat(s.send(GET, "/v1/deliveries?state=dead").bodyAsJsonObject().getJsonArray("deliveries")).isEmpty();
  }

  @Test
  void badQueriesNameTheFieldAndUnknownIdsAreNotFound() {
    HttpResponse<Buffer> r = s.send(GET, "/v1/deliveries?state=done");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("state");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("\"done\"");
    r = s.send(GET, "/v1/deliveries?limit=0");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("limit");
    r = s.send(GET, "/v1/deliveries?cursor=x1");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("field")).isEqualTo("cursor");
    assertThat(s.send(GET, "/v1/deliveries/msg_42").statusCode()).isEqualTo(404);
    assertThat(s.send(GET, "/v1/deliveries/nope").statusCode()).isEqualTo(404);
    assertThat(s.send(POST, "/v1/deliveries/msg_42/retry").statusCode()).isEqualTo(404);
  }
}
