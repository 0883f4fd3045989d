package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import com.standardwebhooks.Webhook;
import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Callbacks in a cluster: three real servers in one JVM over one {@link MemoryCoordinator}, a loopback receiver. Each
 * partition's owner delivers its partition's firings (ids {@code msg_<partition>_<seq>}, signed with the cluster's
 * one secret); when a node leaves, the new owners carry on with its pending deliveries under the same webhook-ids;
 * every node lists and shows every delivery, and a retry through any node reaches the owner.
 */
class ClusterDeliveryTest {

  static final int P = 16;
  static final long LEASE = 2000;

  Vertx vertx;
  MemoryCoordinator coord;
  WebClient client;
  HttpServer receiver;
  final WebhookSecret secret = WebhookSecret.generate(new SecureRandom());
  final List<TickwheelServer> servers = new ArrayList<>();
  final List<String> deployments = new ArrayList<>();
  /** webhook-id → statuses answered, in order. */
  final Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
  final Map<String, JsonObject> bodies = new ConcurrentHashMap<>();
  final AtomicBoolean goneHealed = new AtomicBoolean();
  final List<Throwable> badSignatures = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    client = WebClient.create(vertx);
    Webhook verifier = new Webhook(secret.text());
    // /ok: 200; /retry: 503 on a webhook-id's first attempt, 200 after; /gone: 410 until healed, then 200
    receiver = TestVertx.await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      String id = req.getHeader(WebhookSigner.ID);
      try {
        Map<String, List<String>> h = new java.util.HashMap<>();
        for (String k : List.of(WebhookSigner.ID, WebhookSigner.TIMESTAMP, WebhookSigner.SIGNATURE)) {
          h.put(k, List.of(req.getHeader(k)));
        }
        verifier.verify(body.toString(), h);
      } catch (Exception e) {
        badSignatures.add(e);
      }
      List<Integer> got = seen.computeIfAbsent(id, k -> new java.util.concurrent.CopyOnWriteArrayList<>());
      int status = switch (req.path()) {
        case "/gone" -> goneHealed.get() ? 200 : 410;
        case "/retry" -> got.isEmpty() ? 503 : 200;
        default -> 200;
      };
      got.add(status);
      bodies.put(id, body.toJsonObject());
      req.response().setStatusCode(status).end();
    })).listen(0, "127.0.0.1"));
    coord = new MemoryCoordinator(System::currentTimeMillis, P);
    for (int i = 0; i < 3; i++) {
      ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0)
          .withWebhooks(new WebhookOptions(secret, true, List.of()))
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

  String url(String path) {
    return "http://127.0.0.1:" + receiver.actualPort() + path;
  }

  HttpResponse<Buffer> call(int node, io.vertx.core.http.HttpMethod m, String path, JsonObject body) {
    var req = client.request(m, servers.get(node).actualPort(), "127.0.0.1", path);
    return TestVertx.await(body == null ? req.send() : req.sendJsonObject(body));
  }

  void awaitOwned(int nodes) {
    InProcessClusterTest.awaitSpread(node -> call(node, io.vertx.core.http.HttpMethod.GET, "/v1/cluster", null)
        .bodyAsJsonObject(), nodes, P);
  }


  /** Every delivery listed through {@code node}, a page of {@code limit} at a time. */
  List<JsonObject> listAll(int node, String state, int limit) {
    List<JsonObject> all = new ArrayList<>();
    String cursor = null;
    do {
      String q = "/v1/deliveries?state=" + state + "&limit=" + limit + (cursor == null ? "" : "&cursor=" + cursor);
      HttpResponse<Buffer> r = call(node, io.vertx.core.http.HttpMethod.GET, q, null);
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
      JsonArray page = r.bodyAsJsonObject().getJsonArray("deliveries");
      page.forEach(o -> all.add((JsonObject) o));
      cursor = r.bodyAsJsonObject().getString("next");
      assertThat(page.size() == limit || cursor == null).as("a short page is the last").isTrue();
    } while (cursor != null);
    return all;
  }

  @Test
  void eachOwnerDeliversItsPartitionsAndANodeLeavingHandsItsPendingDeliveriesOverUnderTheSameWebhookIds()
      throws Exception {
    awaitOwned(3);
    int n = 60;
    // 8 timers of partitions node n2 serves are answered 503 at first (fewer than the 10 failures that open the
    // host's breaker): their deliveries wait ~1 s for a retry, and n2 leaves meanwhile; the others are answered 200
    Set<Integer> ofN2 = new HashSet<>();
    for (Object o : call(0, io.vertx.core.http.HttpMethod.GET, "/v1/cluster", null).bodyAsJsonObject()
        .getJsonArray("owners")) {
      if ("n2".equals(((JsonObject) o).getString("node"))) {
        ofN2.add(((JsonObject) o).getInteger("partition"));
      }
    }
    assertThat(ofN2).isNotEmpty();
    Set<String> timerIds = new HashSet<>();
    Set<String> retried = new HashSet<>();
    for (int i = 0; timerIds.size() < n; i++) {
      String id = "cb-" + i;
      boolean retry = retried.size() < 8 && ofN2.contains(io.tickwheel.core.coordination.Partitions.of(id, P));
      if (!retry && n - timerIds.size() <= 8 - retried.size()) {
        continue;             // keep room for the 8 of n2's partitions
      }
      JsonObject cb = new JsonObject().put("url", url(retry ? "/retry" : "/ok")).put("maxAttempts", 5)
          .put("minBackoffMs", 1000).put("maxBackoffMs", 1000);
      HttpResponse<Buffer> r = call(i % 3, io.vertx.core.http.HttpMethod.POST, "/v1/timers", new JsonObject()
          .put("id", id).put("delayMs", 200 + (i % 10) * 50).put("callback", cb));
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
      timerIds.add(id);
      if (retry) {
        retried.add(id);
      }
    }
    assertThat(retried).hasSize(8);
    Awaitility.await("every delivery attempted").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(seen).hasSize(n));
    TestVertx.await(vertx.undeploy(deployments.get(2)));
    try {
      Awaitility.await("every delivery succeeded").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
          .until(() -> seen.values().stream().filter(s -> s.contains(200)).count() >= n);
    } catch (ConditionTimeoutException e) {
      // the checks below say which
    }
    assertThat(badSignatures).isEmpty();
    Set<String> delivered = new HashSet<>();
    seen.forEach((id, statuses) -> {
      assertThat(Delivery.partitionOf(id)).as(id).isBetween(0, P - 1);
      String timer = bodies.get(id).getString("id");
      delivered.add(timer);
      // n2's retried deliveries: attempted again by the partition's new owner, under the same webhook-id
      assertThat(statuses).as(id + " of " + timer).isEqualTo(retried.contains(timer) ? List.of(503, 200) : List.of(200));
    });
    assertThat(delivered).isEqualTo(timerIds);
    // the two remaining nodes list all of them, alike, as succeeded, in pages
    List<JsonObject> fromA = listAll(0, "succeeded", 7);
    List<JsonObject> fromB = listAll(1, "succeeded", 100);
    assertThat(fromA).hasSize(n);
    assertThat(fromA).isEqualTo(fromB);
    Set<String> listedIds = new HashSet<>();
    fromA.forEach(d -> listedIds.add(d.getString("id")));
    assertThat(listedIds).isEqualTo(seen.keySet());
    // a handed-over one shows both attempts: the 503 by n2, the 200 by the new owner
    String one = seen.keySet().stream().filter(id -> retried.contains(bodies.get(id).getString("id"))).findFirst()
        .orElseThrow();
    JsonObject got = call(1, io.vertx.core.http.HttpMethod.GET, "/v1/deliveries/" + one, null).bodyAsJsonObject();
    assertThat(got.getString("id")).isEqualTo(one);
    assertThat(got.getString("state")).isEqualTo("succeeded");
    assertThat(got.getJsonArray("attempts").stream().map(o -> ((JsonObject) o).getInteger("status")))
        .containsExactly(503, 200);
    // a retry of a succeeded one is refused by its owner, whichever node is asked, once both route by a view without
    // n2 (until then a node may answer 503, Retry-After: no live owner as it last read the leases, or n2's address)
    awaitOwned(2);
    for (int node = 0; node < 2; node++) {
      HttpResponse<Buffer> r = call(node, io.vertx.core.http.HttpMethod.POST, "/v1/deliveries/" + one + "/retry", null);
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(409);
    }
    assertThat(call(0, io.vertx.core.http.HttpMethod.GET, "/v1/deliveries/msg_99_1", null).statusCode()).isEqualTo(404);
    assertThat(call(0, io.vertx.core.http.HttpMethod.GET, "/v1/deliveries/msg_1", null).statusCode()).isEqualTo(404);
    assertThat(call(0, io.vertx.core.http.HttpMethod.GET, "/v1/deliveries?cursor=12", null).statusCode()).isEqualTo(400);
  }

  @Test
  void aDeadDeliveryRetriedThroughANodeThatDoesNotOwnItsPartitionIsRequeuedByTheOwnerAndDelivered() throws Exception {
    awaitOwned(3);
    HttpResponse<Buffer> r = call(0, io.vertx.core.http.HttpMethod.POST, "/v1/timers", new JsonObject()
        .put("id", "gone").put("delayMs", 100).put("callback", new JsonObject().put("url", url("/gone"))));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    List<JsonObject> dead = Awaitility.await("a dead delivery").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100)).until(() -> listAll(1, "dead", 10), l -> !l.isEmpty());
    assertThat(dead).hasSize(1);
    String id = dead.get(0).getString("id");
    int partition = Delivery.partitionOf(id);
    JsonArray owners = call(0, io.vertx.core.http.HttpMethod.GET, "/v1/cluster", null).bodyAsJsonObject()
        .getJsonArray("owners");
    String owner = null;
    for (Object o : owners) {
      if (((JsonObject) o).getInteger("partition") == partition) {
        owner = ((JsonObject) o).getString("node");
      }
    }
    int other = "n0".equals(owner) ? 1 : 0;
    goneHealed.set(true);
    HttpResponse<Buffer> retried = call(other, io.vertx.core.http.HttpMethod.POST, "/v1/deliveries/" + id + "/retry",
        null);
    assertThat(retried.statusCode()).as(retried.bodyAsString()).isEqualTo(202);
    assertThat(retried.bodyAsJsonObject().getString("id")).isEqualTo(id);
    Awaitility.await("the retried delivery answered 200").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50)).until(() -> seen.get(id).contains(200));
    assertThat(seen.get(id)).containsExactly(410, 200);
    Awaitility.await("the retried delivery recorded as succeeded").atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(50)).untilAsserted(() -> assertThat(call(2, io.vertx.core.http.HttpMethod.GET,
            "/v1/deliveries/" + id, null).bodyAsJsonObject().getString("state")).isEqualTo("succeeded"));
  }
}
