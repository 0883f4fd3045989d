package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The bearer token, the WebSocket Origin check, CORS and the pending-timer cap, over real sockets. */
@ExtendWith(BlockedThreadGuard.class)
class AuthAndLimitsTest {

  static final String TOKEN = "s3cret-token";
  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  static ServerHarness secured() {
    return ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory").withToken(TOKEN)
        .withAllowedOrigins(List.of("http://console.example:9000")), new MemoryTimerStore());
  }

  @Test
  void everyV1CallNeedsTheBearerTokenButHealthDoesNot() {
    try (ServerHarness s = secured()) {
      HttpResponse<Buffer> none = s.checked(POST, "/v1/timers", TestVertx.await(s.client.post("/v1/timers").sendBuffer(Buffer.buffer("{\"delayMs\":1}"))));
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.getHeader("WWW-Authenticate")).startsWith("Bearer");
      assertThat(none.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("unauthenticated");
      HttpResponse<Buffer> wrong = s.checked(GET, "/v1/timers", TestVertx.await(s.client.get("/v1/timers").bearerTokenAuthentication("nope").send()));
      assertThat(wrong.statusCode()).isEqualTo(401);
      HttpResponse<Buffer> queryOnRest = s.checked(GET, "/v1/timers", TestVertx.await(s.client.get("/v1/timers?access_token=" + TOKEN).send()));
      assertThat(queryOnRest.statusCode()).isEqualTo(401);
      assertThat(s.checked(GET, "/v1/wheel", TestVertx.await(s.client.get("/v1/wheel").send())).statusCode()).isEqualTo(401);
      assertThat(s.checked(GET, "/health", TestVertx.await(s.client.get("/health").send())).statusCode()).isEqualTo(200);
      assertThat(s.send(GET, "/v1/timers").statusCode()).isEqualTo(200);
      assertThat(s.send(POST, "/v1/timers", "{\"delayMs\":60000}").statusCode()).isEqualTo(201);
    }
  }

  @Test
  void theInternalRouteTakesCallsFromNodesOnlyWithTheTokenAndItsVersion() {
    try (ServerHarness s = secured()) {
      Buffer get = Buffer.buffer("{\"call\":\"get\",\"id\":\"..\"}");
      io.vertx.ext.web.client.HttpRequest<Buffer> node = s.client.post("/internal/v1/calls")
          .putHeader("Content-Type", "application/json").putHeader("X-Tickwheel-Node", "n1");
      assertThat(TestVertx.await(node.copy().sendBuffer(get)).statusCode()).as("no token").isEqualTo(401);
      node.bearerTokenAuthentication(TOKEN);
      HttpResponse<Buffer> found = TestVertx.await(node.copy().sendBuffer(get));
      assertThat(found.statusCode()).isEqualTo(200);
      assertThat(found.bodyAsJsonObject().getJsonObject("refused").getInteger("status"))
          .as("an id of dots, carried in the body").isEqualTo(404);
      HttpResponse<Buffer> browser = TestVertx.await(node.copy().putHeader("Origin", "http://console.example:9000")
          .sendBuffer(get));
      assertThat(browser.statusCode()).as("any page, even an allowed origin").isEqualTo(403);
      HttpResponse<Buffer> plain = TestVertx.await(s.client.post("/internal/v1/calls").bearerTokenAuthentication(TOKEN)
          .putHeader("Content-Type", "application/json").sendBuffer(get));
      assertThat(plain.statusCode()).as("no node header").isEqualTo(403);
      HttpResponse<Buffer> v2 = TestVertx.await(s.client.post("/internal/v2/calls").bearerTokenAuthentication(TOKEN)
          .putHeader("Content-Type", "application/json").putHeader("X-Tickwheel-Node", "n1").sendBuffer(get));
      assertThat(v2.statusCode()).isEqualTo(400);
      assertThat(v2.bodyAsJsonObject().getJsonObject("error").getString("message"))
          .isEqualTo("internal protocol version \"v2\" is not spoken by this node (it speaks v1)");
      HttpResponse<Buffer> unknown = TestVertx.await(node.copy().sendBuffer(Buffer.buffer("{\"call\":\"explode\"}")));
      assertThat(unknown.statusCode()).isEqualTo(400);
      assertThat(unknown.bodyAsJsonObject().getJsonObject("error").getString("message"))
          .contains("unknown call \"explode\"");
    }
  }

  @Test
  void anUnauthenticatedBodyIsRefusedWith401BeforeTheBodyLimitApplies() {
    try (ServerHarness s = secured()) {
      HttpResponse<Buffer> r = s.checked(POST, "/v1/timers", TestVertx.await(s.client.post("/v1/timers")
          .sendBuffer(Buffer.buffer("x".repeat(2 * 1024 * 1024)))));
      assertThat(r.statusCode()).isEqualTo(401);
    }
  }

  @Test
  void theWebSocketNeedsTheTokenAndAnAllowedOrigin() throws Exception {
    try (ServerHarness s = secured()) {
      WebSocketClient ws = vertx.createWebSocketClient();
      WebSocketConnectOptions base = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(s.port);
      assertThat(failureOf(ws, new WebSocketConnectOptions(base).setURI("/v1/ws"))).isEqualTo("status 401");
      assertThat(failureOf(ws, new WebSocketConnectOptions(base).setURI("/v1/ws?access_token=" + TOKEN)
          .addHeader("Origin", "http://evil.example"))).isEqualTo("status 403");
      var ok = TestVertx.await(ws.connect(new WebSocketConnectOptions(base).setURI("/v1/ws?access_token=" + TOKEN)
          .addHeader("Origin", "http://console.example:9000")));
      CompletableFuture<String> reply = new CompletableFuture<>();
      ok.textMessageHandler(reply::complete);
      ok.writeTextMessage("{\"op\":\"ping\"}");
      assertThat(reply.get(10, TimeUnit.SECONDS)).contains("pong");
      TestVertx.await(ok.close());
      var own = TestVertx.await(ws.connect(new WebSocketConnectOptions(base).setURI("/v1/ws")
          .addHeader("Authorization", "Bearer " + TOKEN).addHeader("Origin", "http://127.0.0.1:" + s.port)));
      TestVertx.await(own.close());
      TestVertx.await(ws.close());
    }
  }

  @Test
  void corsAnswersPreflightForAnAllowedOrigin() {
    try (ServerHarness s = secured()) {
      // a CORS preflight: answered by Vert.x Web's CORS handler, part of the CORS protocol rather than the API
      // the OpenAPI document describes, so not validated against it
      HttpResponse<Buffer> r = TestVertx.await(s.client.request(io.vertx.core.http.HttpMethod.OPTIONS, "/v1/timers")
          .putHeader("Origin", "http://console.example:9000")
          .putHeader("Access-Control-Request-Method", "POST")
          .putHeader("Access-Control-Request-Headers", "authorization,content-type").send());
      assertThat(r.statusCode()).isEqualTo(204);
      assertThat(r.getHeader("Access-Control-Allow-Origin")).isEqualTo("http://console.example:9000");
    }
  }

  @Test
  void createsBeyondMaxPendingGet429AndDeletingMakesRoomAgain() {
    try (ServerHarness s = ServerHarness.start(vertx, ServerConfig.defaults().withStore("memory").withMaxPending(2),
        new MemoryTimerStore())) {
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"a\",\"delayMs\":60000}").statusCode()).isEqualTo(201);
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"b\",\"delayMs\":60000}").statusCode()).isEqualTo(201);
      HttpResponse<Buffer> full = s.send(POST, "/v1/timers", "{\"id\":\"c\",\"delayMs\":60000}");
      assertThat(full.statusCode()).isEqualTo(429);
      assertThat(full.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("resource_exhausted");
      assertThat(s.send(io.vertx.core.http.HttpMethod.DELETE, "/v1/timers/a").statusCode()).isEqualTo(204);
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"c\",\"delayMs\":60000}").statusCode()).isEqualTo(201);
    }
  }

  private static String failureOf(WebSocketClient ws, WebSocketConnectOptions o) {
    try {
      TestVertx.await(ws.connect(o));
      return "connected";
    } catch (Throwable t) {
      Throwable c = t;
      while (c != null && !(c instanceof io.vertx.core.http.UpgradeRejectedException)) {
        c = c.getCause();
      }
      return c == null ? t.toString() : "status " + ((io.vertx.core.http.UpgradeRejectedException) c).getStatus();
    }
  }
}
