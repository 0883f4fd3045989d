package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.RawHttp;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server without a token cannot be driven by a web page: a DNS-rebinding page (its own name in {@code Host}) gets
 * 421, a cross-site write gets 403, a body that is not JSON gets 415; curl-like clients and the server's own pages
 * are served. Raw sockets, so every header is the test's.
 */
@ExtendWith(BlockedThreadGuard.class)
class LocalServerSafetyTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static RawHttp.Answer send(ServerHarness s, String method, String path, String host, String body,
      String... headers) throws Exception {
    List<String> h = new ArrayList<>(List.of(headers));
    if (host != null) {
      h.add("Host: " + host);
    }
    RawHttp.Answer a = RawHttp.send(s.port, method, path, h, body);
    OpenApiValidator.served().validate(HttpMethod.valueOf(method), path, a.status(), a.headers(), a.body());
    return a;
  }

  static String code(RawHttp.Answer a) {
    return new JsonObject(a.text()).getJsonObject("error").getString("code");
  }

  @Test
  void aRebindingHostIsRefusedWith421AndNamesTheHost() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      for (String path : List.of("/v1/webhook-secret", "/v1/timers", "/metrics", "/health")) {
        RawHttp.Answer a = send(s, "GET", path, "attacker.example:" + s.port, null);
        assertThat(a.status()).as(path).isEqualTo(421);
        assertThat(code(a)).isEqualTo("permission_denied");
        assertThat(new JsonObject(a.text()).getJsonObject("error").getString("message"))
            .contains("attacker.example").contains("--token");
      }
      assertThat(send(s, "GET", "/v1/timers", "127.0.0.1.nip.io:" + s.port, null).status()).isEqualTo(421);
      assertThat(send(s, "GET", "/v1/timers", "localhost.attacker.example", null).status()).isEqualTo(421);
      assertThat(send(s, "GET", "/v1/timers", "10.0.0.1:" + s.port, null).status()).isEqualTo(421);
    }
  }

  @Test
  void namesOfThisServerAreServedOnAnyPort() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      for (String host : List.of("127.0.0.1:" + s.port, "localhost:" + s.port, "LOCALHOST", "[::1]:" + s.port,
          "127.0.0.2:9999", "console.localhost:" + s.port, "localhost.")) {
        assertThat(send(s, "GET", "/v1/webhook-secret", host, null).status()).as(host).isEqualTo(200);
      }
    }
  }

  @Test
  void aServerWithATokenServesAnyHostAndLeavesItToTheToken() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory")
        .withToken("t0ken"), new MemoryTimerStore())) {
      assertThat(send(s, "GET", "/v1/webhook-secret", "timers.example.com", null).status()).isEqualTo(401);
      assertThat(send(s, "GET", "/v1/webhook-secret", "timers.example.com", null, "Authorization: Bearer t0ken")
          .status()).isEqualTo(200);
    }
  }

  @Test
  void aCrossSiteTextPlainPostIsRefusedAndCreatesNothing() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      String host = "127.0.0.1:" + s.port;
      String body = "{\"id\":\"csrf\",\"delayMs\":60000}";
      // what fetch(url, {method:'POST', mode:'no-cors', body}) sends from another site
      RawHttp.Answer a = send(s, "POST", "/v1/timers", host, body, "Content-Type: text/plain;charset=UTF-8",
          "Origin: http://attacker.example", "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors");
      assertThat(a.status()).isEqualTo(403);
      assertThat(code(a)).isEqualTo("permission_denied");
      assertThat(a.text()).contains("attacker.example");
      // the same without Origin (not a browser) still needs the JSON media type
      RawHttp.Answer b = send(s, "POST", "/v1/timers", host, body, "Content-Type: text/plain");
      assertThat(b.status()).isEqualTo(415);
      assertThat(code(b)).isEqualTo("invalid_argument");
      assertThat(new JsonObject(b.text()).getJsonObject("error").getString("message"))
          .contains("application/json").contains("text/plain");
      assertThat(send(s, "POST", "/v1/timers", host, body).status()).as("no Content-Type").isEqualTo(415);
      assertThat(s.send(HttpMethod.GET, "/v1/timers/csrf").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void bodylessWritesFromAnotherSiteAreRefusedAndChangeNothing() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      assertThat(s.send(HttpMethod.POST, "/v1/timers", "{\"id\":\"t\",\"delayMs\":60000}").statusCode())
          .isEqualTo(201);
      String host = "127.0.0.1:" + s.port;
      for (String path : List.of("/v1/timers/t/fire", "/v1/timers/t/pause", "/v1/timers/t/touch",
          "/v1/topics/default/pause")) {
        RawHttp.Answer a = send(s, "POST", path, host, null, "Origin: http://attacker.example");
        assertThat(a.status()).as(path).isEqualTo(403);
        assertThat(send(s, "POST", path, host, null, "Sec-Fetch-Site: cross-site").status()).as(path)
            .isEqualTo(403);
        assertThat(send(s, "POST", path, host, null, "Origin: null").status()).as(path).isEqualTo(403);
      }
      assertThat(send(s, "DELETE", "/v1/timers/t", host, null, "Origin: http://attacker.example").status())
          .isEqualTo(403);
      JsonObject t = s.send(HttpMethod.GET, "/v1/timers/t").bodyAsJsonObject();
      assertThat(t.getBoolean("paused", false)).isFalse();
      assertThat(t.getLong("firings")).isZero();
    }
  }

  @Test
  void theServersOwnPagesAndNonBrowserClientsWrite() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      String host = "127.0.0.1:" + s.port;
      RawHttp.Answer created = send(s, "POST", "/v1/timers", host, "{\"id\":\"ok\",\"delayMs\":60000}",
          "Content-Type: application/json; charset=utf-8", "Origin: http://" + host, "Sec-Fetch-Site: same-origin");
      assertThat(created.status()).isEqualTo(201);
      assertThat(send(s, "POST", "/v1/timers/ok/pause", host, null, "Origin: http://" + host).status())
          .isEqualTo(200);
      assertThat(send(s, "POST", "/v1/timers/ok/resume", host, null).status()).as("curl-like").isEqualTo(200);
      assertThat(send(s, "DELETE", "/v1/timers/ok", "localhost:" + s.port, null, "Origin: http://localhost:"
          + s.port).status()).isEqualTo(204);
    }
  }

  @Test
  void anAllowedOriginMayWrite() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory")
        .withAllowedOrigins(List.of("http://console.example:9000")), new MemoryTimerStore())) {
      RawHttp.Answer a = send(s, "POST", "/v1/timers", "127.0.0.1:" + s.port, "{\"delayMs\":60000}",
          "Content-Type: application/json", "Origin: http://console.example:9000");
      assertThat(a.status()).isEqualTo(201);
    }
  }
}
