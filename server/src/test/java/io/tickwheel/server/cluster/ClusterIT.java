package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real server jars clustered on one redis-server started by the test. Timers are created through random nodes;
 * the checker reads every partition's firing log from Redis (the truth the streams are built on) and counts
 * acknowledged, fired, duplicates, early and lost. Faults: kill -9 of a node under load (its timers fire within
 * lease + 2 s), SIGTERM (its partitions are taken over within 1 s).
 */
class ClusterIT {

  static final int P = 32;
  static final long LEASE = 3000;
  static final Duration START = Duration.ofSeconds(40);

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  final List<ServerProcess> nodes = new ArrayList<>();
  Vertx vertx;
  RedisClusterCoordinator checker;
  ClusterProbe probe;

  /** The Redis and the checker (a member with {@link #P} partitions: the Redis is a cluster's); no node yet. */
  @BeforeEach
  void start() {
    redis = RedisServerProcess.start();
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())));
    TestVertx.await(checker.join("checker", "none", P));
    probe = new ClusterProbe(checker, P);
  }

  /** Starts the nodes n0, n1 and n2 side by side (each JVM takes seconds on a busy machine) and waits until they listen. */
  void startNodes() {
    for (int i = 0; i < 3; i++) {
      nodes.add(ServerProcess.fromJar(ServerProcess.jarFromProperty())
          .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
          .args("--store", "redis", "--redis", redis.uri(), "--cluster", "--node-id", "n" + i,
              "--partitions", "" + P, "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).start());
    }
    nodes.forEach(n -> n.awaitListening(START));
  }

  @AfterEach
  void stop() {
    nodes.forEach(ServerProcess::close);
    if (checker != null) {
      TestVertx.await(checker.close());
    }
    TestVertx.close(vertx);
    redis.close();
  }

  /** A create load through the nodes. */
  ClusterLoad load() {
    return new ClusterLoad(probe, () -> List.copyOf(nodes)).begin();
  }

  /** The acknowledged timers of the partitions {@code owners} gives {@code node}, due {@code ms} from now or later. */
  static long dueLaterIn(Map<String, Long> acked, Map<Integer, String> owners, String node, long ms) {
    long from = System.currentTimeMillis() + ms;
    return acked.entrySet().stream().filter(a -> a.getValue() >= from)
        .filter(a -> node.equals(owners.get(io.tickwheel.core.coordination.Partitions.of(a.getKey(), P)))).count();
  }

  /** Counts and checks: every acknowledged timer fired exactly once, never before its due time. */
  @Test
  void underLoadKillNineOfANodeLosesNothingFiresNothingTwiceAndItsTimersFireWithinLeasePlusTwoSeconds()
      throws Exception {
    startNodes();
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 20_000);
    Map<Integer, String> ownerBefore = new HashMap<>();
    probe.cluster(nodes.get(0)).getJsonArray("owners").forEach(o -> ownerBefore.put(((JsonObject) o).getInteger("partition"),
        ((JsonObject) o).getString("node")));
    ClusterLoad load = load();
    // timers of the victim's partitions that come due after the kill, before its partitions are taken over
    load.awaitAcked("5 timers of n2's partitions due in 500 ms or later",
        acked -> dueLaterIn(acked, ownerBefore, "n2", 500) >= 5);
    ServerProcess victim = nodes.get(2);
    victim.kill9();
    long killedAt = System.currentTimeMillis();
    load.awaitMoreAcked(100);          // the load goes on while the victim's partitions have no live owner
    long lastDue = load.finish();
    Map<String, List<Firing>> fired = probe.verifyFiredOnce("ClusterIT", load.acked,
        Math.max(lastDue, killedAt + LEASE + 2000) + 10_000, ", refused " + load.refusalSummary());
    load.assertOnlyRetryableRefusals(List.of(victim.baseUrl()));
    // the victim's partitions: what was due before the take-over fired within lease + 2 s of the kill
    long worst = Long.MIN_VALUE;
    int takenOver = 0;
    for (Map.Entry<String, Long> a : load.acked.entrySet()) {
      int p = io.tickwheel.core.coordination.Partitions.of(a.getKey(), P);
      long firedAt = fired.get(a.getKey()).get(0).firedAt();
      if ("n2".equals(ownerBefore.get(p)) && firedAt >= killedAt) {
        takenOver++;
        worst = Math.max(worst, firedAt - Math.max(a.getValue(), killedAt));
      }
    }
    System.out.println("ClusterIT: " + takenOver + " timers of the killed node's " + count(ownerBefore, "n2")
        + " partitions fired after the kill, the latest " + worst + " ms after max(due, kill)");
    assertThat(takenOver).isPositive();
    assertThat(worst).isLessThanOrEqualTo(LEASE + 2000);
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1"), 10_000);
  }

  @Test
  void sigtermHandsTheNodesPartitionsOverWithinOneSecond() throws Exception {
    startNodes();
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 20_000);
    long t0 = System.currentTimeMillis();
    nodes.get(1).sigterm();
    long owned = probe.awaitOwners(nodes.get(0), Set.of("n0", "n2"), 5_000);
    System.out.println("ClusterIT: SIGTERM hand-over took " + (owned - t0) + " ms");
    assertThat(owned - t0).isLessThanOrEqualTo(1000);
    assertThat(nodes.get(1).waitForExit(Duration.ofSeconds(5))).isTrue();
    assertThat(nodes.get(1).exitValue()).isZero();
  }

  @Test
  void timersCreatedThroughRandomNodesFireExactlyOnceNeverEarly() throws Exception {
    startNodes();
    for (ServerProcess n : nodes) {   // every node's view has settled: none routes to a partition's previous owner
      probe.awaitOwners(n, Set.of("n0", "n1", "n2"), 20_000);
    }
    ClusterLoad load = load();
    load.awaitMoreAcked(300);
    long lastDue = load.finish();
    assertThat(load.refusals).isEmpty();
    probe.verifyFiredOnce("ClusterIT", load.acked, lastDue + 10_000, "");
  }

  static int count(Map<Integer, String> owners, String node) {
    return (int) owners.values().stream().filter(node::equals).count();
  }

  /** Starts a jar with {@code args} and returns its exit status and stderr once it exited (it must, within 40 s). */
  String refusal(String name, String... args) {
    ServerProcess p = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1").args(args).logs(tmp, name).start();
    nodes.add(p);
    assertThat(p.waitForExit(START)).as(p.describe()).isTrue();
    return p.exitValue() + " " + p.stderr().strip();
  }

  @Test
  void aSingleNodeOnTheClustersRedisAndANodeWithAnotherPartitionCountRefuseToStartSayingWhy() {
    String single = refusal("single", "--store", "redis", "--redis", redis.uri(), "--port", "0");
    assertThat(single).startsWith("2 ").contains("refusing to start").contains("--cluster");
    String other = refusal("other", "--store", "redis", "--redis", redis.uri(), "--cluster", "--partitions", "64",
        "--port", "0");
    assertThat(other).startsWith("2 ").contains("refusing to start").contains("--partitions " + P);
  }

  @Test
  void aClusterNodeOnTheRedisOfASingleNodeRefusesToStartSayingWhy() throws Exception {
    try (RedisServerProcess own = RedisServerProcess.start()) {
      ServerProcess single = ServerProcess.fromJar(ServerProcess.jarFromProperty())
          .jvmArgs("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
          .args("--store", "redis", "--redis", own.uri(), "--port", "0").logs(tmp, "single-owner")
          .startAndAwaitListening(START);
      nodes.add(single);
      HttpResponse<String> r = probe.send(single.baseUrl() + "/v1/timers", "POST", "{\"id\":\"s\",\"delayMs\":60000}");
      assertThat(r.statusCode()).isEqualTo(201);
      single.sigterm();
      assertThat(single.waitForExit(Duration.ofSeconds(10))).isTrue();
      String refused = refusal("cluster-on-single", "--store", "redis", "--redis", own.uri(), "--cluster", "--port", "0");
      assertThat(refused).startsWith("2 ").contains("refusing to start").contains("single");
    }
  }

  @Test
  void sigstopOfAnOwnerLongerThanItsLeaseThenSigcontFiresNothingTwiceAndLosesNothing() throws Exception {
    startNodes();
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 20_000);
    Map<Integer, String> ownerBefore = new HashMap<>();
    probe.cluster(nodes.get(0)).getJsonArray("owners").forEach(o -> ownerBefore.put(((JsonObject) o).getInteger("partition"),
        ((JsonObject) o).getString("node")));
    ClusterLoad load = load();
    load.awaitAcked("5 timers of n2's partitions due in 500 ms or later",
        acked -> dueLaterIn(acked, ownerBefore, "n2", 500) >= 5);
    ServerProcess paused = nodes.get(2);
    paused.pause();
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1"), LEASE + 10_000);   // its leases ended: the others own all
    paused.resume();                   // it wakes with stale leases: fenced, it must neither fire nor write
    // on waking it stops the partitions whose local deadline had passed (or that a write found fenced)
    await("the woken node counted the partitions it lost").atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(50)).until(() -> partitionsLost(paused) > 0);
    load.awaitMoreAcked(100);          // the load goes on with it awake
    long lastDue = load.finish();
    probe.verifyFiredOnce("ClusterIT", load.acked, lastDue + 10_000, ", refused " + load.refusalSummary());
    load.assertOnlyRetryableRefusals(List.of(paused.baseUrl()));
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 15_000);   // and it rejoins the assignment
    assertThat(partitionsLost(paused)).isPositive();
  }

  /** {@code tickwheel_cluster_partitions_lost_total} of {@code node}, read from its {@code /metrics} (0: not there). */
  double partitionsLost(ServerProcess node) throws Exception {
    String metrics = probe.send(node.baseUrl() + "/metrics", "GET", null).body();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^tickwheel_cluster_partitions_lost_total\\S* (\\S+)$")
        .matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
