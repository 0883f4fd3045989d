package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster-wide firing stream through real servers in one JVM (three nodes over a {@link MemoryCoordinator}, the
 * real clock, each node's hub on its {@code ClusterFiringFeed} as {@link TickwheelServer}'s cluster mode wires it):
 * timers created through one node are pushed to a subscriber of another, and a cursor taken there resumes on a third.
 */
class ClusterStreamTest {

  static final int P = 16;

  Vertx vertx;
  WebClient http;
  WebSocketClient wsClient;
  final List<TickwheelServer> servers = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vertx = TestVertx.create();
    http = WebClient.create(vertx);
    wsClient = vertx.createWebSocketClient();
    MemoryCoordinator coord = new MemoryCoordinator(System::currentTimeMillis, P);
    for (int i = 0; i < 3; i++) {
      ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0)
          .withCluster(new ClusterOptions(true, "n" + i, null, P, 6000)); // no lease lapses here
      TickwheelServer s = new TickwheelServer(cfg, coord, System::currentTimeMillis, null);
      servers.add(s);
      TestVertx.await(vertx.deployVerticle(s));
    }
    InProcessClusterTest.awaitSpread(node -> TestVertx.await(http.get(servers.get(node).actualPort(), "127.0.0.1",
        "/v1/cluster").send()).bodyAsJsonObject(), 3, P);
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  record Socket(WebSocket ws, LinkedBlockingQueue<JsonObject> in) {
    JsonObject next(String type) throws InterruptedException {
      JsonObject m = in.poll(20, TimeUnit.SECONDS);
      assertThat(m).as("a %s message within 20 s", type).isNotNull();
      assertThat(m.getString("type")).as("%s", m).isEqualTo(type);
      return m;
    }
  }

  Socket subscribe(int node, Object from) {
    LinkedBlockingQueue<JsonObject> in = new LinkedBlockingQueue<>();
    WebSocket ws = TestVertx.await(wsClient.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(servers.get(node).actualPort()).setURI("/v1/ws")));
    ws.textMessageHandler(t -> in.add(new JsonObject(t)));
    JsonObject sub = new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("*"));
    if (from != null) {
      sub.put("from", from);
    }
    TestVertx.await(ws.writeTextMessage(sub.encode()));
    return new Socket(ws, in);
  }

  void create(int node, int from, int to) {
    for (int i = from; i < to; i++) {
      HttpResponse<Buffer> r = TestVertx.await(http.post(servers.get(node).actualPort(), "127.0.0.1", "/v1/timers")
          .sendJsonObject(new JsonObject().put("id", "s-" + i).put("delayMs", 100)));
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    }
  }

  @Test
  void firingsOfTimersCreatedThroughOneNodeReachAnotherNodesSubscriberAndACursorResumesOnAThird()
      throws Exception {
    Socket onB = subscribe(1, null);
    JsonObject subscribed = onB.next("subscribed");
    assertThat(subscribed.getString("cursor")).startsWith("c");
    assertThat(subscribed.containsKey("seq")).as("no single seq in a cluster").isFalse();

    create(0, 0, 60);
    List<JsonObject> first = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      first.add(onB.next("fired"));
    }
    Set<String> ids = new HashSet<>();
    for (JsonObject m : first) {
      assertThat(ids.add(m.getString("id"))).as("%s once", m.getString("id")).isTrue();
      assertThat(m.getInteger("partition")).isBetween(0, P - 1);
    }
    String cursor = first.get(39).getString("cursor");
    TestVertx.await(onB.ws().close());

    create(2, 60, 80);
    Socket onC = subscribe(2, cursor);
    onC.next("subscribed");
    Set<String> resumed = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      JsonObject m = onC.next("fired");
      assertThat(resumed.add(m.getString("id"))).as("%s once", m.getString("id")).isTrue();
    }
    Set<String> before = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      before.add(first.get(i).getString("id"));
    }
    assertThat(resumed).doesNotContainAnyElementsOf(before);
    Set<String> all = new HashSet<>(before);
    all.addAll(resumed);
    assertThat(all).hasSize(80);
    // a negative check, so time is what it checks: nothing more arrives in the 300 ms after
    Awaitility.await("nothing more").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
        .until(() -> onC.in().isEmpty());
    double sent = 0;
    for (int node = 0; node < 3; node++) {
      sent += metric(node, "tickwheel_cluster_push_requests_total{outcome=\"sent\"}");
      assertThat(metric(node, "tickwheel_cluster_push_posted_total")).as("node %d's pushes POSTed", node).isZero();
    }
    assertThat(sent).as("pushes sent, all over the push WebSockets").isPositive();
  }

  @Test
  void thePushSocketTakesNodesOnlyAndClosesOnAMessageThatIsNotAPush() {
    int port = servers.get(0).actualPort();
    WebSocketConnectOptions push = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
        .setURI("/internal/v1/firings").setAllowOriginHeader(false);
    assertThat(refusal(push)).as("without the node header").isEqualTo(403);
    assertThat(refusal(new WebSocketConnectOptions(push).putHeader("X-Tickwheel-Node", "x")
        .setAllowOriginHeader(true))).as("with an Origin").isEqualTo(403);

    WebSocket ws = TestVertx.await(wsClient.connect(new WebSocketConnectOptions(push)
        .putHeader("X-Tickwheel-Node", "x")));
    LinkedBlockingQueue<String> closed = new LinkedBlockingQueue<>();
    ws.closeHandler(v -> closed.add(ws.closeStatusCode() + " " + ws.closeReason()));
    TestVertx.await(ws.writeBinaryMessage(Buffer.buffer("{\"node\":\"x\",\"version\":1,\"parts\":[[" + P
        + ",0,1,[]]]}")));
    Awaitility.await("closed").atMost(Duration.ofSeconds(10)).until(() -> !closed.isEmpty());
    assertThat(closed.peek()).startsWith("1007 parts[0]: partition " + P + " (of " + P + ")");
  }

  private int refusal(WebSocketConnectOptions o) {
    Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> TestVertx.await(wsClient.connect(o)));
    assertThat(e).isInstanceOf(io.vertx.core.http.UpgradeRejectedException.class);
    return ((io.vertx.core.http.UpgradeRejectedException) e).getStatus();
  }

  private double metric(int node, String series) {
    String text = TestVertx.await(http.get(servers.get(node).actualPort(), "127.0.0.1", "/metrics").send())
        .bodyAsString();
    double[] values = text.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(
        l.substring(series.length() + 1).trim())).toArray();
    assertThat(values).as("node %d exposes %s", node, series).hasSize(1);
    return values[0];
  }
}
