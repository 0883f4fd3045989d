package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.model.Firing;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three real servers in one JVM, each on its own loopback port and event loop, clustered over one
 * {@link MemoryCoordinator} (the real clock): ownership spreads, calls to any node reach the owner, and every timer
 * created through one node fires exactly once, never early, also when a node leaves (its partitions are handed over).
 */
public class InProcessClusterTest {

  static final int P = 16;
  static final long LEASE = 2000;

  Vertx vertx;
  MemoryCoordinator coord;
  WebClient client;
  final List<TickwheelServer> servers = new ArrayList<>();
  final List<String> deployments = new ArrayList<>();

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    client = WebClient.create(vertx);
    coord = new MemoryCoordinator(System::currentTimeMillis, P);
    for (int i = 0; i < 3; i++) {
      ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0)
          .withCluster(new ClusterOptions(true, "n" + i, null, P, LEASE));
      TickwheelServer s = new TickwheelServer(cfg, coord, System::currentTimeMillis, null);
      servers.add(s);
      deployments.add(TestVertx.await(vertx.deployVerticle(s)));
    }
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  JsonObject get(int node, String path) {
    HttpResponse<Buffer> r = TestVertx.await(client.get(servers.get(node).actualPort(), "127.0.0.1", path).send());
    assertThat(r.statusCode()).as(path + ": " + r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject();
  }

  /** Waits until every partition has one owner and every node serves its rendezvous share. */
  JsonObject awaitSpread(int nodes) {
    return awaitSpread(node -> get(node, "/v1/cluster"), nodes, P);
  }

  /**
   * Waits (at most 20 s, then fails) until nodes 0..{@code nodes}-1 each see, in their {@code GET /v1/cluster}
   * ({@code view}), all {@code partitions} owned as rendezvous assigns them over {@code nodes} nodes: no hand-over
   * under way. Each node routes by its own view, and node 0's alone was seen settled while another still routed a
   * partition to no one. Returns node 0's view.
   */
  public static JsonObject awaitSpread(java.util.function.IntFunction<JsonObject> view, int nodes, int partitions) {
    Awaitility.await("the partitions spread over " + nodes + " nodes in every view").atMost(Duration.ofSeconds(20))
        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
          for (int node = 0; node < nodes; node++) {
            JsonObject c = view.apply(node);
            assertThat(c.getJsonArray("owners").size() == partitions && c.getJsonArray("nodes").size() == nodes
                && spreadAsRendezvous(c)).as("the view of node %d: %s", node, c.encode()).isTrue();
          }
        });
    return view.apply(0);
  }

  public static boolean spreadAsRendezvous(JsonObject c) {
    List<String> ids = new ArrayList<>();
    for (Object n : c.getJsonArray("nodes")) {
      ids.add(((JsonObject) n).getString("id"));
    }
    String[] want = Rendezvous.assign(ids, c.getInteger("partitions"));
    for (Object o : c.getJsonArray("owners")) {
      JsonObject owner = (JsonObject) o;
      if (!owner.getString("node").equals(want[owner.getInteger("partition")])) {
        return false;
      }
    }
    return true;
  }

  List<Firing> allFirings() {
    List<Firing> all = new ArrayList<>();
    for (int p = 0; p < P; p++) {
      all.addAll(TestVertx.await(coord.partitionReader(p).readFirings(0, 100_000)));
    }
    return all;
  }

  @Test
  void partitionsSpreadOverTheNodesAndClusterAndHealthSayWhoOwnsWhat() throws Exception {
    JsonObject c = awaitSpread(3);
    assertThat(c.getInteger("partitions")).isEqualTo(P);
    assertThat(c.getJsonArray("owners")).hasSize(P);
    int sum = 0;
    for (Object n : c.getJsonArray("nodes")) {
      JsonObject node = (JsonObject) n;
      assertThat(node.getString("address")).startsWith("http://127.0.0.1:");
      sum += node.getInteger("partitions");
    }
    assertThat(sum).isEqualTo(P);
    assertThat(spreadAsRendezvous(c)).isTrue();
    JsonObject h = get(1, "/health");
    assertThat(h.getString("node")).isEqualTo("n1");
    assertThat(h.getInteger("partitionsOwned")).isEqualTo(Rendezvous.assign(List.of("n0", "n1", "n2"), P).length
        - countOthers(Rendezvous.assign(List.of("n0", "n1", "n2"), P), "n1"));
  }

  static int countOthers(String[] owners, String node) {
    int n = 0;
    for (String o : owners) {
      if (!o.equals(node)) {
        n++;
      }
    }
    return n;
  }

  @Test
  void timersCreatedThroughOneNodeFireExactlyOnceAndNeverEarlyAlsoWhenANodeLeaves() throws Exception {
    awaitSpread(3);
    int n = 300;
    Map<String, Long> due = new HashMap<>();
    for (int i = 0; i < n; i++) {
      JsonObject body = new JsonObject().put("id", "t-" + i).put("delayMs", 500 + (i % 50) * 40);
      HttpResponse<Buffer> r = TestVertx.await(client.post(servers.get(0).actualPort(), "127.0.0.1", "/v1/timers")
          .sendJsonObject(body));
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
      due.put("t-" + i, r.bodyAsJsonObject().getLong("nextDueAt"));
    }
    // node 2 leaves gracefully while timers are due (some fired, most not yet): its partitions are handed over
    Awaitility.await("the first firings").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
        .until(() -> !allFirings().isEmpty());
    TestVertx.await(vertx.undeploy(deployments.get(2)));
    try {
      Awaitility.await("every timer fired").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
          .until(() -> allFirings().size() >= n);
      // a negative check, so time is what it checks: no timer fires a second time in the 500 ms after
      Awaitility.await("no more firings").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
          .until(() -> allFirings().size() == n);
    } catch (ConditionTimeoutException e) {
      // the checks below say which timers are missing or fired twice
    }
    List<Firing> fired = allFirings();
    Map<String, Integer> times = new HashMap<>();
    for (Firing f : fired) {
      times.merge(f.id(), 1, Integer::sum);
      assertThat(f.firedAt()).as(f.id()).isGreaterThanOrEqualTo(due.get(f.id()));
    }
    assertThat(times.keySet()).containsExactlyInAnyOrderElementsOf(due.keySet());
    assertThat(times.values()).containsOnly(1);
    JsonObject c = awaitSpread(2);
    assertThat(c.getJsonArray("nodes")).hasSize(2);
    assertThat(spreadAsRendezvous(c)).isTrue();
  }

  @Test
  void aTimerIsReadableThroughEveryNodeWhicheverOwnsIt() throws Exception {
    awaitSpread(3);
    HttpResponse<Buffer> r = TestVertx.await(client.post(servers.get(1).actualPort(), "127.0.0.1", "/v1/timers")
        .sendJsonObject(new JsonObject().put("id", "x").put("delayMs", 60_000)));
    assertThat(r.statusCode()).isEqualTo(201);
    for (int i = 0; i < 3; i++) {
      assertThat(get(i, "/v1/timers/x").getString("id")).isEqualTo("x");
    }
    JsonArray owners = get(2, "/v1/cluster").getJsonArray("owners");
    assertThat(owners).hasSize(P);
    Future.succeededFuture();
  }
}
