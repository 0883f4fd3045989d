package io.tickwheel.server.route;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.cluster.ClusterOptions;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The routing as the server's cluster mode wires it: three real {@link TickwheelServer}s with {@code --cluster} over
 * one {@link MemoryCoordinator} (leases, rendezvous ownership, partition schedulers by the runtime). Batches, batch
 * touches, listings, topics and topic pauses answer the same through every node.
 */
class ClusterServerRoutingTest {

  static final int P = 12;

  Vertx vertx;
  WebClient client;
  final List<TickwheelServer> servers = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vertx = TestVertx.create();
    client = WebClient.create(vertx);
    MemoryCoordinator coord = new MemoryCoordinator(System::currentTimeMillis, P);
    for (int i = 0; i < 3; i++) {
      ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0)
          .withCluster(new ClusterOptions(true, "n" + i, null, P, 3000));
      TickwheelServer s = new TickwheelServer(cfg, coord, System::currentTimeMillis, null);
      servers.add(s);
      TestVertx.await(vertx.deployVerticle(s));
    }
    // every partition served as rendezvous assigns it (so every node serves some), as every node sees it
    io.tickwheel.server.cluster.InProcessClusterTest.awaitSpread(node -> send(node, HttpMethod.GET, "/v1/cluster",
        null).bodyAsJsonObject(), 3, P);
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  HttpResponse<Buffer> send(int node, HttpMethod m, String uri, String body) {
    var req = client.request(m, servers.get(node).actualPort(), "127.0.0.1", uri);
    HttpResponse<Buffer> r = TestVertx.await(body == null ? req.send()
        : req.putHeader("content-type", "application/json").sendBuffer(Buffer.buffer(body)));
    return OpenApiValidator.served().validate(m, uri, r);
  }

  /** The same call through every node: the same status and body (retried while a partition is between owners). */
  String same(HttpMethod m, String uri) {
    String first = null;
    for (int i = 0; i < 3; i++) {
      int node = i;
      HttpResponse<Buffer> r = Awaitility.await(uri + " on n" + i + " answered, not 503").atMost(Duration.ofSeconds(5))
          .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
          .until(() -> send(node, m, uri, null), x -> x.statusCode() != 503);
      assertThat(r.statusCode()).as(uri + " on n" + i + ": " + r.bodyAsString()).isEqualTo(200);
      if (first == null) {
        first = r.bodyAsString();
      } else {
        assertThat(r.bodyAsString()).as(uri + " on n" + i).isEqualTo(first);
      }
    }
    return first;
  }

  @Test
  void batchesListingsTopicsAndTopicPausesAnswerAlikeThroughEveryNode() throws Exception {
    long base = System.currentTimeMillis() + 3_600_000;
    JsonArray timers = new JsonArray();
    for (int i = 0; i < 90; i++) {
      timers.add(new JsonObject().put("id", "c-" + i).put("at", base + (i % 30) * 1000L).put("topic", "t" + (i % 3)));
    }
    HttpResponse<Buffer> batch = send(1, HttpMethod.POST, "/v1/timers/batch", new JsonObject().put("timers", timers).encode());
    JsonArray results = batch.bodyAsJsonObject().getJsonArray("results");
    for (int i = 0; i < 90; i++) {
      assertThat(results.getJsonObject(i).getInteger("status")).as(results.getJsonObject(i).encode()).isEqualTo(201);
      assertThat(results.getJsonObject(i).getJsonObject("timer").getString("id")).isEqualTo("c-" + i);
    }

    // the listing, page by page with cursors taken from one node and used on the others
    List<String> ids = new ArrayList<>();
    String cursor = null;
    do {
      String page = same(HttpMethod.GET, "/v1/timers?limit=8" + (cursor == null ? "" : "&cursor=" + cursor));
      JsonObject p = new JsonObject(page);
      p.getJsonArray("timers").forEach(t -> ids.add(((JsonObject) t).getString("id")));
      cursor = p.getString("next");
    } while (cursor != null);
    assertThat(ids).hasSize(90).doesNotHaveDuplicates();

    JsonArray topics = new JsonObject(same(HttpMethod.GET, "/v1/topics")).getJsonArray("topics");
    assertThat(topics).containsExactly(
        new JsonObject().put("topic", "t0").put("pending", 30).put("paused", false),
        new JsonObject().put("topic", "t1").put("pending", 30).put("paused", false),
        new JsonObject().put("topic", "t2").put("pending", 30).put("paused", false));

    HttpResponse<Buffer> paused = send(2, HttpMethod.POST, "/v1/topics/t1/pause", null);
    assertThat(paused.bodyAsJsonObject()).isEqualTo(new JsonObject().put("topic", "t1").put("pending", 30).put("paused", true));
    assertThat(new JsonObject(same(HttpMethod.GET, "/v1/topics?topic=t1")).getJsonArray("topics"))
        .containsExactly(new JsonObject().put("topic", "t1").put("pending", 30).put("paused", true));

    JsonArray touch = new JsonArray();
    for (int i = 0; i < 90; i += 9) {
      touch.add("c-" + i);
    }
    HttpResponse<Buffer> touched = send(0, HttpMethod.POST, "/v1/timers/touch",
        new JsonObject().put("ids", touch).put("delayMs", 7_200_000).encode());
    JsonArray tr = touched.bodyAsJsonObject().getJsonArray("results");
    assertThat(tr).hasSize(10);
    for (int i = 0; i < 10; i++) {
      assertThat(tr.getJsonObject(i).getString("id")).isEqualTo("c-" + (i * 9));
      assertThat(tr.getJsonObject(i).getInteger("status")).isEqualTo(200);
      assertThat(new JsonObject(same(HttpMethod.GET, "/v1/timers/c-" + (i * 9))).getLong("nextDueAt"))
          .isEqualTo(tr.getJsonObject(i).getLong("nextDueAt"));
    }
    double overSocket = 0;
    for (TickwheelServer s : servers) {
      String scrape = s.metrics().scrape();
      assertThat(scrape).contains("tickwheel_routed_calls_total{outcome=\"local\"}");
      overSocket += series(scrape, "tickwheel_forward_transport_calls_total{transport=\"socket\"}");
      assertThat(series(scrape, "tickwheel_forward_transport_calls_total{transport=\"post\"}"))
          .as("forwarded calls POSTed").isZero();
    }
    assertThat(overSocket).as("forwarded calls sent over the nodes' call sockets").isPositive();
  }

  /** The value of one series in a scrape; fails when it is absent. */
  private static double series(String scrape, String name) {
    return scrape.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(
        name.length() + 1).trim())).findFirst().orElseThrow(() -> new AssertionError(name + " is not in the scrape"));
  }
}
