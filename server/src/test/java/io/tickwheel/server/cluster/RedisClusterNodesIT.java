package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.StoreFactory;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.store.redis.cluster.RedisClusterCoordinator;
import io.tickwheel.testkit.RedisClusterProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Vertx;
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
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real server jars clustered on a real 3-master Redis Cluster with one replica each, given to {@code --redis} as
 * a comma-separated list of seeds. Timers created through random nodes fire exactly once, never early; the checker
 * reads every partition's firing log (spread over the masters by their hash tags).
 */
class RedisClusterNodesIT {

  static final int P = 16;
  static final long LEASE = 3000;

  @TempDir
  Path tmp;
  RedisClusterProcess redis;
  final List<ServerProcess> nodes = new ArrayList<>();
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  Vertx vertx;
  RedisClusterCoordinator checker;

  @BeforeEach
  void start() {
    redis = RedisClusterProcess.start(3, 1);
    String seeds = String.join(",", redis.uris());
    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    for (int i = 0; i < 3; i++) {
      nodes.add(jar.args("--store", "redis", "--redis", seeds, "--cluster", "--node-id", "n" + i,
          "--partitions", "" + P, "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).startAndAwaitListening(Duration.ofSeconds(40)));
    }
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx, StoreFactory.redisOptions(seeds)));
    TestVertx.await(checker.join("checker", "none", P));
  }

  @AfterEach
  void stop() {
    nodes.forEach(ServerProcess::close);
    if (checker != null) {
      TestVertx.await(checker.close());
    }
    TestVertx.close(vertx);
    if (redis != null) {
      redis.close();
    }
  }

  HttpResponse<String> send(String url, String method, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
    b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
        : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  void awaitAllOwned(long timeoutMs) throws Exception {
    long until = System.currentTimeMillis() + timeoutMs;
    JsonObject c = null;
    while (System.currentTimeMillis() < until) {
      c = new JsonObject(send(nodes.get(0).baseUrl() + "/v1/cluster", "GET", null).body());
      String[] want = Rendezvous.assign(new ArrayList<>(List.of("n0", "n1", "n2")), P);
      boolean spread = c.getJsonArray("nodes").size() == 3 && c.getJsonArray("owners").size() == P;
      for (Object o : c.getJsonArray("owners")) {
        JsonObject owner = (JsonObject) o;
        spread &= owner.getString("node").equals(want[owner.getInteger("partition")]);
      }
      if (spread) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("partitions not spread over 3 nodes within " + timeoutMs + " ms: " + c);
  }

  @Test
  void timersCreatedThroughRandomNodesOnARedisClusterFireExactlyOnceNeverEarly() throws Exception {
    awaitAllOwned(30_000);
    Map<String, Long> acked = new HashMap<>();
    Random rnd = new Random(11);
    for (int i = 0; i < 300; i++) {
      ServerProcess via = nodes.get(rnd.nextInt(nodes.size()));
      String id = "rc-" + i;
      String body = new JsonObject().put("id", id).put("delayMs", 500 + rnd.nextInt(1500)).encode();
      HttpResponse<String> r = send(via.baseUrl() + "/v1/timers", "POST", body);
      for (int retry = 0; r.statusCode() == 503 && retry < 5; retry++) { // a partition moving: retry as told
        Thread.sleep(1000);
        r = send(via.baseUrl() + "/v1/timers", "POST", body);
      }
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      acked.put(id, new JsonObject(r.body()).getLong("nextDueAt"));
    }
    // the partitions' keys live on all three masters (one hash tag per partition)
    Set<Integer> masters = new HashSet<>();
    for (int p = 0; p < P; p++) {
      masters.add(redis.masterOf(RedisTimerStore.partitionTag("tw", p) + ":timers").port());
    }
    assertThat(masters).hasSize(3);

    verifyFiredOnce(acked, 20_000, "RedisClusterNodesIT");
  }

  /**
   * Waits (up to {@code waitMs}) until every acknowledged timer is in its partition's firing log, then asserts each
   * fired exactly once and never before its acknowledged due time.
   */
  void verifyFiredOnce(Map<String, Long> acked, long waitMs, String label) throws Exception {
    long until = System.currentTimeMillis() + waitMs;
    Map<String, List<Firing>> fired = new HashMap<>();
    while (System.currentTimeMillis() < until) {
      fired.clear();
      for (int p = 0; p < P; p++) {
        for (Firing f : TestVertx.await(checker.partitionReader(p).readFirings(0, 100_000))) {
          fired.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
        }
      }
      if (fired.keySet().containsAll(acked.keySet())) {
        break;
      }
      Thread.sleep(200);
    }
    int duplicates = 0;
    int early = 0;
    int lost = 0;
    for (Map.Entry<String, Long> a : acked.entrySet()) {
      List<Firing> fs = fired.get(a.getKey());
      if (fs == null) {
        lost++;
        continue;
      }
      duplicates += fs.size() - 1;
      early += (int) fs.stream().filter(f -> f.firedAt() < a.getValue()).count();
    }
    String counts = "acknowledged " + acked.size() + ", fired " + fired.size() + ", duplicates " + duplicates
        + ", early " + early + ", lost " + lost;
    System.out.println(label + ": " + counts);
    assertThat(List.of(duplicates, early, lost)).as(counts).containsOnly(0);
  }

  /** POST of {@code id} through a random node, retried on 503 (a partition moving, Redis failing over) for 20 s. */
  long create(Random rnd, String id, long delayMs) throws Exception {
    String body = new JsonObject().put("id", id).put("delayMs", delayMs).encode();
    long until = System.currentTimeMillis() + 20_000;
    HttpResponse<String> r;
    do {
      ServerProcess via = nodes.get(rnd.nextInt(nodes.size()));
      r = send(via.baseUrl() + "/v1/timers", "POST", body);
      if (r.statusCode() == 503) {
        Thread.sleep(250);
      }
    } while (r.statusCode() == 503 && System.currentTimeMillis() < until);
    if (r.statusCode() == 409) {       // a 503 "may have applied" that did apply: the timer is there
      r = send(nodes.get(0).baseUrl() + "/v1/timers/" + id, "GET", null);
    }
    assertThat(r.statusCode()).as(id + ": " + r.body()).isIn(200, 201);
    return new JsonObject(r.body()).getLong("nextDueAt");
  }

  @Test
  void killNineOfARedisMasterWithAReplicaLosesNoReplicatedTimerFiresNothingTwiceAndTheClusterServesAgain()
      throws Exception {
    awaitAllOwned(30_000);
    Random rnd = new Random(13);
    Map<String, Long> acked = new HashMap<>();
    // due after the failover: their firings are recorded by the promoted replica's data
    for (int i = 0; i < 150; i++) {
      acked.put("mk-" + i, create(rnd, "mk-" + i, 15_000 + rnd.nextInt(3000)));
    }
    String key = RedisTimerStore.partitionTag("tw", 0) + ":timers";
    io.tickwheel.testkit.RedisServerProcess master = redis.masterOf(key);
    redis.awaitReplicated(master, 10_000);   // what the README promises to keep: writes the replica has
    long killedAt = System.currentTimeMillis();
    io.tickwheel.testkit.RedisServerProcess promoted = redis.killMasterAndAwaitFailover(master, key, 20_000);
    System.out.println("RedisClusterNodesIT: master " + master.port() + " killed, replica " + promoted.port()
        + " serves after " + (System.currentTimeMillis() - killedAt) + " ms");
    // the nodes serve every partition again, and take new timers on the promoted master's partitions too
    for (int i = 0; i < 50; i++) {
      acked.put("after-" + i, create(rnd, "after-" + i, 2_000 + rnd.nextInt(2000)));
    }
    verifyFiredOnce(acked, 40_000, "RedisClusterNodesIT (master kill)");
  }
}
