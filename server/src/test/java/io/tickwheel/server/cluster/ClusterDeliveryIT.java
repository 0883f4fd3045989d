package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.standardwebhooks.Webhook;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callbacks in a cluster of real server jars on one private redis-server: timers with callbacks created through every
 * node, a receiver in this JVM that answers 503 to the first attempt of the timers of the partitions node n2 owns;
 * n2 is killed with SIGKILL while those wait for their retry. Every firing is delivered (at least once, each under
 * one webhook-id {@code msg_<partition>_<seq>}, signed as the official verifier checks), the killed node's pending
 * ones by the partitions' new owners, and every node lists them all as succeeded.
 */
class ClusterDeliveryIT {

  static final int P = 32;
  static final long LEASE = 3000;
  static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  final List<ServerProcess> nodes = new ArrayList<>();
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  Vertx vertx;
  HttpServer receiver;
  /** webhook-id → statuses answered, in order. */
  final Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
  final Map<String, String> timerOf = new ConcurrentHashMap<>();
  final List<String> badSignatures = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    Webhook verifier = new Webhook(SECRET);
    receiver = TestVertx.await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      String id = req.getHeader(WebhookSigner.ID);
      try {
        Map<String, List<String>> h = new HashMap<>();
        for (String k : List.of(WebhookSigner.ID, WebhookSigner.TIMESTAMP, WebhookSigner.SIGNATURE)) {
          h.put(k, List.of(req.getHeader(k)));
        }
        verifier.verify(body.toString(), h);
      } catch (Exception e) {
        badSignatures.add(id + ": " + e);
      }
      List<Integer> got = seen.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
      int status = req.path().equals("/retry") && got.isEmpty() ? 503 : 200;
      got.add(status);
      timerOf.put(id, body.toJsonObject().getString("id"));
      req.response().setStatusCode(status).end();
    })).listen(0, "127.0.0.1"));
    redis = RedisServerProcess.start();
    for (int i = 0; i < 3; i++) {       // side by side: each JVM takes seconds on a busy machine
      nodes.add(ServerProcess.fromJar(ServerProcess.jarFromProperty())
          .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
          .args("--store", "redis", "--redis", redis.uri(), "--cluster", "--node-id", "n" + i,
              "--partitions", "" + P, "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1",
              "--webhook-secret", SECRET, "--webhook-allow-private")
          .logs(tmp, "n" + i).start());
    }
    nodes.forEach(n -> n.awaitListening(Duration.ofSeconds(40)));
  }

  @AfterEach
  void stop() {
    nodes.forEach(ServerProcess::close);
    TestVertx.close(vertx);
    redis.close();
  }

  HttpResponse<String> send(ServerProcess via, String method, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(via.baseUrl() + path)).timeout(Duration.ofSeconds(5));
    b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
        : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code GET /v1/cluster} of node {@code i}. */
  JsonObject view(int i) {
    try {
      return new JsonObject(send(nodes.get(i), "GET", "/v1/cluster", null).body());
    } catch (Exception e) {
      throw new AssertionError("GET /v1/cluster of node " + i, e);
    }
  }

  /**
   * Partitions owned by {@code node} once every node's view has settled: the three nodes share all partitions as
   * rendezvous assigns them, with no hand-over under way.
   */
  Set<Integer> awaitSpreadAndOwnedBy(String node) {
    JsonObject c = InProcessClusterTest.awaitSpread(this::view, 3, P);
    Set<Integer> mine = new HashSet<>();
    for (Object o : c.getJsonArray("owners")) {
      JsonObject owner = (JsonObject) o;
      if (node.equals(owner.getString("node"))) {
        mine.add(owner.getInteger("partition"));
      }
    }
    return mine;
  }

  @Test
  void killNineOfANodeWithPendingDeliveriesLetsTheNewOwnersDeliverThemUnderTheSameWebhookIds() throws Exception {
    Set<Integer> ofN2 = awaitSpreadAndOwnedBy("n2");
    assertThat(ofN2).isNotEmpty();
    String url = "http://127.0.0.1:" + receiver.actualPort();
    int n = 60;
    Set<String> created = new HashSet<>();
    Set<String> retried = new HashSet<>();
    for (int i = 0; created.size() < n; i++) {
      String id = "cb-" + i;
      boolean retry = retried.size() < 8 && ofN2.contains(Partitions.of(id, P));
      if (!retry && n - created.size() <= 8 - retried.size()) {
        continue;
      }
      JsonObject cb = new JsonObject().put("url", url + (retry ? "/retry" : "/ok")).put("maxAttempts", 5)
          .put("minBackoffMs", 4000).put("maxBackoffMs", 4000);
      String body = new JsonObject().put("id", id).put("delayMs", 300 + (i % 10) * 50).put("callback", cb).encode();
      ServerProcess via = nodes.get(i % 3);
      // an owner still loading a partition it took answers 503 "recovering" having applied nothing: retried, as a
      // client does
      AtomicReference<HttpResponse<String>> answer = new AtomicReference<>();
      Awaitility.await("create " + id).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            answer.set(send(via, "POST", "/v1/timers", body));
            return !(answer.get().statusCode() == 503 && answer.get().body().contains("recovering"));
          });
      HttpResponse<String> r = answer.get();
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      created.add(id);
      if (retry) {
        retried.add(id);
      }
    }
    Awaitility.await("first attempts").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(seen).as("first attempts").hasSize(n));
    nodes.get(2).kill9();           // n2's 8 deliveries wait for their retry (~4 s ±20 %) in its memory only
    try {
      Awaitility.await("every delivery succeeded").atMost(Duration.ofMillis(LEASE + 2000 + 8000 + 10_000))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> seen.values().stream().filter(s -> s.contains(200)).count() >= n);
    } catch (ConditionTimeoutException e) {
      // the checks below say which
    }
    assertThat(badSignatures).isEmpty();
    Set<String> delivered = new HashSet<>();
    seen.forEach((id, statuses) -> {
      String timer = timerOf.get(id);
      delivered.add(timer);
      assertThat(Delivery.partitionOf(id)).as(id).isEqualTo(Partitions.of(timer, P));
      assertThat(statuses).as(id + " of " + timer).last().isEqualTo(200);
      if (retried.contains(timer)) {
        assertThat(statuses).as(id + " of " + timer).startsWith(503);
      }
    });
    assertThat(delivered).isEqualTo(created);
    for (ServerProcess via : nodes.subList(0, 2)) {
      List<String> listed = new ArrayList<>();
      String cursor = null;
      do {
        HttpResponse<String> r = send(via, "GET", "/v1/deliveries?state=succeeded&limit=25"
            + (cursor == null ? "" : "&cursor=" + cursor), null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonObject page = new JsonObject(r.body());
        page.getJsonArray("deliveries").forEach(d -> listed.add(((JsonObject) d).getString("id")));
        cursor = page.getString("next");
      } while (cursor != null);
      assertThat(listed).as("listed through " + via.baseUrl()).containsExactlyInAnyOrderElementsOf(seen.keySet());
    }
    String handedOver = seen.keySet().stream().filter(id -> retried.contains(timerOf.get(id))).findFirst().orElseThrow();
    JsonArray attempts = new JsonObject(send(nodes.get(1), "GET", "/v1/deliveries/" + handedOver, null).body())
        .getJsonArray("attempts");
    assertThat(attempts.getJsonObject(0).getInteger("status")).isEqualTo(503);
    assertThat(attempts.getJsonObject(attempts.size() - 1).getInteger("status")).isEqualTo(200);
  }
}
