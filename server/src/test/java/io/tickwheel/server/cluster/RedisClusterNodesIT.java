package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.StoreFactory;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.testkit.RedisClusterProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
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
import org.awaitility.Awaitility;
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
  Vertx vertx;
  RedisClusterCoordinator checker;
  ClusterProbe probe;

  @BeforeEach
  void start() {
    redis = RedisClusterProcess.start(3, 1);
    String seeds = String.join(",", redis.uris());
    for (int i = 0; i < 3; i++) {       // side by side: each JVM takes seconds on a busy machine
      nodes.add(ServerProcess.fromJar(ServerProcess.jarFromProperty())
          .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
          .args("--store", "redis", "--redis", seeds, "--cluster", "--node-id", "n" + i,
              "--partitions", "" + P, "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).start());
    }
    nodes.forEach(n -> n.awaitListening(Duration.ofSeconds(40)));
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx, StoreFactory.redisOptions(seeds)));
    TestVertx.await(checker.join("checker", "none", P));
    probe = new ClusterProbe(checker, P);
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

  @Test
  void timersCreatedThroughRandomNodesOnARedisClusterFireExactlyOnceNeverEarly() throws Exception {
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 30_000);
    Map<String, Long> acked = new HashMap<>();
    Random rnd = new Random(11);
    for (int i = 0; i < 300; i++) {
      ServerProcess via = nodes.get(rnd.nextInt(nodes.size()));
      String id = "rc-" + i;
      String body = new JsonObject().put("id", id).put("delayMs", 500 + rnd.nextInt(1500)).encode();
      // a 503 is a partition moving: retried as told (Retry-After: 1)
      HttpResponse<String> r = Awaitility.await("creating " + id + " through " + via.baseUrl())
          .atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
          .until(() -> probe.send(via.baseUrl() + "/v1/timers", "POST", body), x -> x.statusCode() != 503);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      acked.put(id, new JsonObject(r.body()).getLong("nextDueAt"));
    }
    // the partitions' keys live on all three masters (one hash tag per partition)
    Set<Integer> masters = new HashSet<>();
    for (int p = 0; p < P; p++) {
      masters.add(redis.masterOf(RedisTimerStore.partitionTag("tw", p) + ":timers").port());
    }
    assertThat(masters).hasSize(3);

    probe.verifyFiredOnce("RedisClusterNodesIT", acked, System.currentTimeMillis() + 20_000, "");
  }

  /** POST of {@code id} through a random node, retried on 503 (a partition moving, Redis failing over) for 20 s. */
  long create(Random rnd, String id, long delayMs) throws Exception {
    String body = new JsonObject().put("id", id).put("delayMs", delayMs).encode();
    HttpResponse<String> r = Awaitility.await("creating " + id + " (retried while answered 503)")
        .atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
        .until(() -> probe.send(nodes.get(rnd.nextInt(nodes.size())).baseUrl() + "/v1/timers", "POST", body),
            x -> x.statusCode() != 503);
    if (r.statusCode() == 409) {       // a 503 "may have applied" that did apply: the timer is there
      r = probe.send(nodes.get(0).baseUrl() + "/v1/timers/" + id, "GET", null);
    }
    assertThat(r.statusCode()).as(id + ": " + r.body()).isIn(200, 201);
    return new JsonObject(r.body()).getLong("nextDueAt");
  }

  @Test
  void killNineOfARedisMasterWithAReplicaLosesNoReplicatedTimerFiresNothingTwiceAndTheClusterServesAgain()
      throws Exception {
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 30_000);
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
    probe.verifyFiredOnce("RedisClusterNodesIT (master kill)", acked, System.currentTimeMillis() + 40_000, "");
  }
}
