package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.security.TlsOptions;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.testkit.TestCertificates;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster nodes over TLS in one JVM (one {@link MemoryCoordinator}): each listens with a certificate of the test's CA
 * and advertises its {@code https://} URL; calls for partitions another node owns are forwarded over TLS, the peer
 * verified against {@code --tls-ca}, with the first admin token of {@code --tokens-file}. A node whose
 * {@code --tls-ca} is another CA does not trust its peers: its forwarded calls fail (503) and change nothing.
 */
class TlsClusterTest {

  static final int P = 8;
  static final String ADMIN = "cluster-admin-token";

  @TempDir
  static Path tmp;
  static TestCertificates ca;
  static TestCertificates otherCa;
  static Path tokens;

  Vertx vertx;
  WebClient client;
  final List<TickwheelServer> servers = new ArrayList<>();

  @BeforeAll
  static void certificates() throws Exception {
    ca = TestCertificates.create(tmp.resolve("ca"));
    otherCa = TestCertificates.create(tmp.resolve("other-ca"));
    tokens = Files.writeString(tmp.resolve("tokens"), "read reader\nadmin " + ADMIN + "\n");
  }

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    client = WebClient.create(vertx, new WebClientOptions().setSsl(true).setVerifyHost(true)
        .setTrustOptions(new PemTrustOptions().addCertPath(ca.ca().toString())));
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  void startNodes(MemoryCoordinator coord, Path... trustedCa) {
    for (int i = 0; i < trustedCa.length; i++) {
      TestCertificates.Pair pair = ca.issue("node" + i);
      ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0).withToken(null)
          .withTokensFile(tokens).withTls(new TlsOptions(pair.cert(), pair.key(), trustedCa[i]))
          .withCluster(new ClusterOptions(true, "tls" + i, null, P, 2000));
      TickwheelServer s = new TickwheelServer(cfg, coord, System::currentTimeMillis, null);
      servers.add(s);
      TestVertx.await(vertx.deployVerticle(s));
    }
  }

  HttpResponse<Buffer> send(int node, io.vertx.core.http.HttpMethod m, String path, JsonObject body) {
    var req = client.request(m, servers.get(node).actualPort(), "127.0.0.1", path).ssl(true)
        .putHeader("Authorization", "Bearer " + ADMIN);
    return TestVertx.await(body == null ? req.send() : req.sendJsonObject(body));
  }

  JsonObject cluster(int node) {
    return send(node, io.vertx.core.http.HttpMethod.GET, "/v1/cluster", null).bodyAsJsonObject();
  }

  @Test
  void callsForAnotherNodesPartitionsAreForwardedOverVerifiedTls() {
    startNodes(new MemoryCoordinator(System::currentTimeMillis, P), ca.ca(), ca.ca());
    JsonObject c = InProcessClusterTest.awaitSpread(this::cluster, 2, P);
    assertThat(c.getJsonArray("nodes").stream().map(n -> ((JsonObject) n).getString("address")))
        .allSatisfy(a -> assertThat((String) a).startsWith("https://127.0.0.1:"));
    for (int i = 0; i < 40; i++) {
      HttpResponse<Buffer> r = send(i % 2, io.vertx.core.http.HttpMethod.PUT, "/v1/timers/tls-" + i,
          new JsonObject().put("delayMs", 600_000));
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    }
    for (int i = 0; i < 40; i++) {
      assertThat(send((i + 1) % 2, io.vertx.core.http.HttpMethod.GET, "/v1/timers/tls-" + i, null).statusCode())
          .isEqualTo(200);
    }
    for (int n = 0; n < 2; n++) {
      String metrics = TestVertx.await(client.get(servers.get(n).actualPort(), "127.0.0.1", "/metrics").ssl(true)
          .send()).bodyAsString();
      assertThat(metrics).as("node %s's forwarded calls: over its call socket (wss), none POSTed", n)
          .containsPattern("(?m)^tickwheel_forward_transport_calls_total\\{transport=\"socket\",?\\} [1-9]")
          .containsPattern("(?m)^tickwheel_forward_transport_calls_total\\{transport=\"post\",?\\} [0.]+$");
    }
  }

  @Test
  void firingsArePushedToAnotherNodesSubscriberOverAVerifiedWebSocketWithTheAdminToken() throws Exception {
    startNodes(new MemoryCoordinator(System::currentTimeMillis, P), ca.ca(), ca.ca());
    InProcessClusterTest.awaitSpread(this::cluster, 2, P);
    int port = servers.get(1).actualPort();
    assertThat(TestVertx.await(client.get(port, "127.0.0.1", "/internal/v1/firings").ssl(true)
        .putHeader("X-Tickwheel-Node", "x").send()).statusCode()).as("the push route without a token").isEqualTo(401);
    java.util.concurrent.LinkedBlockingQueue<JsonObject> in = new java.util.concurrent.LinkedBlockingQueue<>();
    // the client is kept until the end (Vert.x shuts down a client that is garbage collected, its sockets too)
    io.vertx.core.http.WebSocketClient wsClient = vertx.createWebSocketClient(
        new io.vertx.core.http.WebSocketClientOptions().setSsl(true)
            .setTrustOptions(new PemTrustOptions().addCertPath(ca.ca().toString())));
    io.vertx.core.http.WebSocket ws = TestVertx.await(wsClient
        .connect(new io.vertx.core.http.WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setSsl(true)
            .setURI("/v1/ws").putHeader("Authorization", "Bearer " + ADMIN)));
    ws.textMessageHandler(t -> in.add(new JsonObject(t)));
    ws.writeTextMessage(new JsonObject().put("op", "subscribe").put("topics", new io.vertx.core.json.JsonArray()
        .add("*")).encode());
    JsonObject subscribed = in.poll(20, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(subscribed).as("an answer to subscribe").isNotNull();
    assertThat(subscribed.getString("type")).as("%s", subscribed).isEqualTo("subscribed");
    for (int i = 0; i < 20; i++) {
      HttpResponse<Buffer> r = send(0, io.vertx.core.http.HttpMethod.PUT, "/v1/timers/pushed-" + i,
          new JsonObject().put("delayMs", 200));
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    }
    java.util.Set<String> fired = new java.util.HashSet<>();
    while (fired.size() < 20) {
      JsonObject m = in.poll(20, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(m).as("fired %s of 20", fired.size()).isNotNull();
      if ("fired".equals(m.getString("type"))) {
        assertThat(fired.add(m.getString("id"))).as("%s once", m.getString("id")).isTrue();
      }
    }
    String metrics = TestVertx.await(client.get(servers.get(0).actualPort(), "127.0.0.1", "/metrics").ssl(true)
        .send()).bodyAsString();
    assertThat(metrics).as("node 0's pushes: over the WebSocket, none POSTed")
        .containsPattern("(?m)^tickwheel_cluster_push_requests_total\\{outcome=\"sent\",?\\} [1-9]")
        .containsPattern("(?m)^tickwheel_cluster_push_posted_total [0.]+$");
    TestVertx.await(wsClient.close());
  }

  @Test
  void aNodeThatDoesNotTrustItsPeersCertificatesRoutesNothingToThem() {
    MemoryCoordinator coord = new MemoryCoordinator(System::currentTimeMillis, P);
    startNodes(coord, ca.ca(), otherCa.ca());
    InProcessClusterTest.awaitSpread(this::cluster, 2, P);
    int refused = 0;
    for (int i = 0; i < 40; i++) {
      HttpResponse<Buffer> r = send(1, io.vertx.core.http.HttpMethod.PUT, "/v1/timers/untrusted-" + i,
          new JsonObject().put("delayMs", 600_000));
      if (r.statusCode() == 503) {
        refused++;
        assertThat(r.bodyAsString()).contains("could not be reached");
        // nothing was created on the owner
        assertThat(send(0, io.vertx.core.http.HttpMethod.GET, "/v1/timers/untrusted-" + i, null).statusCode())
            .isEqualTo(404);
      } else {
        assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);   // a partition node 1 owns itself
      }
    }
    assertThat(refused).as("calls node 1 had to forward to node 0").isPositive();
  }
}
