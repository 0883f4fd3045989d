package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A timer's {@code callback} over real sockets (memory store): accepted, shown with its defaults, validated. */
@ExtendWith(BlockedThreadGuard.class)
class CallbackApiTest {

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

  static JsonObject error(HttpResponse<Buffer> r) {
    return r.bodyAsJsonObject().getJsonObject("error");
  }

  @Test
  void aTimerWithACallbackShowsItWithItsDefaultsOnCreateGetAndList() {
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers",
        "{\"id\":\"h\",\"delayMs\":60000,\"callback\":{\"url\":\"https://hooks.example.com/t?x=1\"}}");
    assertThat(r.statusCode()).isEqualTo(201);
    JsonObject cb = r.bodyAsJsonObject().getJsonObject("callback");
    assertThat(cb).isEqualTo(new JsonObject()
        .put("url", "https://hooks.example.com/t?x=1").put("timeoutMs", 10000).put("maxAttempts", 8));
    assertThat(s.send(GET, "/v1/timers/h").bodyAsJsonObject().getJsonObject("callback")).isEqualTo(cb);
    JsonObject listed = s.send(GET, "/v1/timers").bodyAsJsonObject().getJsonArray("timers").getJsonObject(0);
    assertThat(listed.getJsonObject("callback")).isEqualTo(cb);
  }

  @Test
  void backoffBoundsAreShownAndAPutReplacesOrDropsTheCallback() {
    String body = "{\"kind\":\"fixed-rate\",\"periodMs\":60000,\"callback\":{\"url\":\"http://hooks.example.com:8080/\","
        + "\"timeoutMs\":2000,\"maxAttempts\":3,\"minBackoffMs\":1000,\"maxBackoffMs\":8000}}";
    HttpResponse<Buffer> r = s.send(PUT, "/v1/timers/p", body);
    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.bodyAsJsonObject().getJsonObject("callback")).isEqualTo(new JsonObject()
        .put("url", "http://hooks.example.com:8080/").put("timeoutMs", 2000).put("maxAttempts", 3)
        .put("minBackoffMs", 1000).put("maxBackoffMs", 8000));
    HttpResponse<Buffer> replaced = s.send(PUT, "/v1/timers/p", "{\"kind\":\"fixed-rate\",\"periodMs\":60000}");
    assertThat(replaced.statusCode()).isEqualTo(200);
    assertThat(replaced.bodyAsJsonObject().fieldNames()).doesNotContain("callback");
  }

  @Test
  void aLiteralLoopbackHostIsRefusedAtCreateNamingCallbackUrl() {
    for (String url : new String[] {"http://127.0.0.1:9/", "http://2130706433/", "http://[::ffff:127.0.0.1]/",
        "http://0x7f.1/", "http://localhost/"}) {
      HttpResponse<Buffer> r = s.send(POST, "/v1/timers", "{\"delayMs\":1000,\"callback\":{\"url\":\"" + url + "\"}}");
      assertThat(r.statusCode()).as(url).isEqualTo(400);
      assertThat(error(r).getString("field")).isEqualTo("callback.url");
      assertThat(error(r).getString("message")).contains(url).contains("--webhook-allow-private");
    }
  }

  @Test
  void theServerShowsItsWebhookSecretBehindTheTokenAndKeepsTheGeneratedOneInItsStore() {
    MemoryTimerStore store = new MemoryTimerStore();
    String secret;
    try (ServerHarness h = ServerHarness.start(vertx, ServerConfig.defaults().withToken("s3cret-token"), store)) {
      HttpResponse<Buffer> r = h.send(GET, "/v1/webhook-secret");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.getHeader("Cache-Control")).isEqualTo("no-store");
      secret = r.bodyAsJsonObject().getString("secret");
      assertThat(WebhookSecret.parse(secret).key()).hasSize(32);
      assertThat(h.server.webhookSecret().text()).isEqualTo(secret);
      assertThat(TestVertx.await(store.webhookSecret("whsec_" + "A".repeat(32)))).as("kept in the store")
          .isEqualTo(secret);
      assertThat(h.withoutToken().send(GET, "/v1/webhook-secret").statusCode()).isEqualTo(401);
    }
    assertThat(s.send(GET, "/v1/webhook-secret").bodyAsJsonObject().getString("secret"))
        .as("another store, another generated secret").isNotEqualTo(secret);
  }

  @Test
  void aConfiguredSecretIsShownAndTheStoresIsLeftAlone() {
    WebhookSecret configured = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    MemoryTimerStore store = new MemoryTimerStore();
    try (ServerHarness h = ServerHarness.start(vertx, ServerConfig.defaults()
        .withWebhooks(WebhookOptions.DEFAULTS.withSecret(configured)), store)) {
      assertThat(h.send(GET, "/v1/webhook-secret").bodyAsJsonObject().getString("secret"))
          .isEqualTo("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
      assertThat(TestVertx.await(store.webhookSecret("whsec_x"))).as("nothing was stored").isEqualTo("whsec_x");
    }
  }

  @Test
  void allowPrivateAndAllowedBlocksLetLiteralPrivateHostsThrough() {
    ServerConfig cfg = ServerConfig.defaults().withWebhooks(WebhookOptions.parse(null, false, List.of("10.1.0.0/16")));
    try (ServerHarness h = ServerHarness.start(vertx, cfg, new MemoryTimerStore())) {
      assertThat(h.send(POST, "/v1/timers", "{\"delayMs\":1000,\"callback\":{\"url\":\"http://10.1.2.3/\"}}")
          .statusCode()).isEqualTo(201);
      assertThat(h.send(POST, "/v1/timers", "{\"delayMs\":1000,\"callback\":{\"url\":\"http://10.2.2.3/\"}}")
          .statusCode()).isEqualTo(400);
    }
    try (ServerHarness h = ServerHarness.start(vertx,
        ServerConfig.defaults().withWebhooks(WebhookOptions.parse(null, true, List.of())), new MemoryTimerStore())) {
      assertThat(h.send(POST, "/v1/timers", "{\"delayMs\":1000,\"callback\":{\"url\":\"http://127.0.0.1:9/\"}}")
          .statusCode()).isEqualTo(201);
    }
  }

  @Test
  void aBadCallbackIsRefusedWith400NamingTheFieldAndValue() {
    HttpResponse<Buffer> scheme = s.send(POST, "/v1/timers",
        "{\"delayMs\":1000,\"callback\":{\"url\":\"file:///etc/passwd\"}}");
    assertThat(scheme.statusCode()).isEqualTo(400);
    assertThat(error(scheme).getString("field")).isEqualTo("callback.url");
    assertThat(error(scheme).getString("message")).contains("http or https").contains("file:///etc/passwd");
    HttpResponse<Buffer> underscore = s.send(POST, "/v1/timers",
        "{\"delayMs\":1000,\"callback\":{\"url\":\"http://a_b.example.com/hook\"}}");
    assertThat(underscore.statusCode()).as("a host the delivery path cannot use").isEqualTo(400);
    assertThat(error(underscore).getString("field")).isEqualTo("callback.url");
    assertThat(error(underscore).getString("message")).contains("'a_b.example.com'")
        .contains("http://a_b.example.com/hook");
    HttpResponse<Buffer> attempts = s.send(POST, "/v1/timers",
        "{\"delayMs\":1000,\"callback\":{\"url\":\"https://x.example/\",\"maxAttempts\":50}}");
    assertThat(attempts.statusCode()).isEqualTo(400);
    assertThat(error(attempts).getString("field")).isEqualTo("callback.maxAttempts");
    assertThat(error(attempts).getString("message")).contains("50");
    assertThat(s.send(GET, "/v1/timers").bodyAsJsonObject().getJsonArray("timers")).isEmpty();
  }
}
