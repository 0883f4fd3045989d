package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The load tool's HTTP client against a local server that answers 201, or 500 for ids starting with "bad". */
class HttpLanesTest {
  private Vertx vertx;
  private InetSocketAddress address;
  private final Set<Object> connections = ConcurrentHashMap.newKeySet();

  @BeforeEach
  void startServer() throws Exception {
    vertx = Vertx.vertx();
    HttpServer server = vertx.createHttpServer().connectionHandler(connections::add).requestHandler(req ->
        req.body().onSuccess(b -> {
          boolean bad = b.toString().contains("\"bad");
          req.response().setStatusCode(bad ? 500 : 201).end(bad ? "{\"error\":\"boom\"}" : "{\"ok\":true}");
        }));
    server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    address = new InetSocketAddress("127.0.0.1", server.actualPort());
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  @Timeout(60)
  void closedLoopCountsNon2xxAsErrorsAndNeverOpensMoreConnectionsThanAllowed() throws Exception {
    try (HttpLanes lanes = new HttpLanes(2, 6)) {
      HttpLanes.Request post = new HttpLanes.Request(address, "POST", "/v1/timers", "application/json", null);
      Scenarios.Run run = Scenarios.closedLoop(2_000, 6, i -> lanes.send(post,
          ("{\"id\":\"" + (i % 10 == 0 ? "bad" : "ok") + i + "\"}").getBytes(StandardCharsets.UTF_8), 201), 0);

      assertThat(run.ops()).isEqualTo(2_000);
      assertThat(run.errors()).isEqualTo(200);
      assertThat(run.firstError()).contains("POST /v1/timers").contains("status 500").contains("boom");
      assertThat(run.latencyMicros().getTotalCount()).isEqualTo(2_000);
      assertThat(connections).hasSizeBetween(1, 6); // keep-alive: reused, never more than the bound
      assertThat(lanes.openConnections()).isBetween(1, 6);
    }
  }

  @Test
  @Timeout(30)
  void callReturnsTheBodyAndStatusAnswersAnyStatus() throws Exception {
    try (HttpLanes lanes = new HttpLanes(1, 2)) {
      HttpLanes.Request post = new HttpLanes.Request(address, "POST", "/x", "application/json", "Bearer t");
      assertThat(lanes.call(post, "{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8), 201).get(10, TimeUnit.SECONDS))
          .isEqualTo("{\"ok\":true}");
      assertThat(lanes.status(post.withUri("/y")).get(10, TimeUnit.SECONDS)).isEqualTo(201);
    }
  }

  @Test
  @Timeout(30)
  void aRefusedConnectionFailsTheRequest() throws Exception {
    InetSocketAddress nobody;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      nobody = new InetSocketAddress("127.0.0.1", s.getLocalPort());
    }
    try (HttpLanes lanes = new HttpLanes(1, 1)) {
      var f = lanes.send(new HttpLanes.Request(nobody, "POST", "/v1/timers", "application/json", null), new byte[0], 201);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS))
          .isInstanceOf(java.util.concurrent.ExecutionException.class);
    }
  }
}
