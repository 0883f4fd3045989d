package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.cluster.RedisClusterCoordinator;
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
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
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

  @BeforeEach
  void start() {
    redis = RedisServerProcess.start();
    ServerProcess.Launcher jar = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    for (int i = 0; i < 3; i++) {
      nodes.add(jar.args("--store", "redis", "--redis", redis.uri(), "--cluster", "--node-id", "n" + i,
          "--partitions", "" + P, "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1")
          .logs(tmp, "n" + i).startAndAwaitListening(START));
    }
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())));
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
    redis.close();
  }

  /** Creates timers through random live nodes until stopped; remembers each acknowledged one's due time. */
  final class Load implements Runnable {
    final AtomicBoolean stop = new AtomicBoolean();
    final Map<String, Long> acked = new ConcurrentHashMap<>();
    final Random rnd = new Random(7);
    volatile int refused;
    final List<String> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
    int next;

    @Override
    public void run() {
      while (!stop.get()) {
        ServerProcess via = nodes.get(rnd.nextInt(nodes.size()));
        if (!via.isAlive()) {
          continue;
        }
        String id = "k-" + next++;
        long delay = 300 + rnd.nextInt(2000);
        try {
          HttpResponse<String> r = probe.send(via.baseUrl() + "/v1/timers", "POST",
              new JsonObject().put("id", id).put("delayMs", delay).encode());
          if (r.statusCode() == 201) {
            acked.put(id, new JsonObject(r.body()).getLong("nextDueAt"));
          } else {
            refused++;
            refusals.add(via.baseUrl() + " " + r.statusCode() + " " + r.body());
          }
        } catch (Exception e) {
          refused++;
          refusals.add(via.baseUrl() + " " + e);
        }
      }
    }
  }

  /** Counts and checks: every acknowledged timer fired exactly once, never before its due time. */
  @Test
  void underLoadKillNineOfANodeLosesNothingFiresNothingTwiceAndItsTimersFireWithinLeasePlusTwoSeconds()
      throws Exception {
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 20_000);
    Map<Integer, String> ownerBefore = new HashMap<>();
    probe.cluster(nodes.get(0)).getJsonArray("owners").forEach(o -> ownerBefore.put(((JsonObject) o).getInteger("partition"),
        ((JsonObject) o).getString("node")));
    Load load = new Load();
    Thread t = new Thread(load, "cluster-load");
    t.start();
    Thread.sleep(2500);
    ServerProcess victim = nodes.get(2);
    victim.kill9();
    long killedAt = System.currentTimeMillis();
    Thread.sleep(1500);
    load.stop.set(true);
    t.join(10_000);
    long lastDue = load.acked.values().stream().mapToLong(Long::longValue).max().orElse(0);
    Map<String, List<Firing>> fired = probe.verifyFiredOnce("ClusterIT", load.acked,
        Math.max(lastDue, killedAt + LEASE + 2000) + 10_000, "");
    // the victim's partitions: what was due before the take-over fired within lease + 2 s of the kill
    long worst = Long.MIN_VALUE;
    int takenOver = 0;
    for (Map.Entry<String, Long> a : load.acked.entrySet()) {
      int p = io.tickwheel.core.cluster.Partitions.of(a.getKey(), P);
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
    for (ServerProcess n : nodes) {   // every node's view has settled: none routes to a partition's previous owner
      probe.awaitOwners(n, Set.of("n0", "n1", "n2"), 20_000);
    }
    Load load = new Load();
    Thread t = new Thread(load, "cluster-load");
    t.start();
    Thread.sleep(2000);
    load.stop.set(true);
    t.join(10_000);
    assertThat(load.refusals).isEmpty();
    long lastDue = load.acked.values().stream().mapToLong(Long::longValue).max().orElse(0);
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
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 20_000);
    Load load = new Load();
    Thread t = new Thread(load, "cluster-load");
    t.start();
    Thread.sleep(2000);
    ServerProcess paused = nodes.get(2);
    paused.pause();
    Thread.sleep(LEASE + 1500);        // the others take its partitions over meanwhile
    paused.resume();                   // it wakes with stale leases: fenced, it must neither fire nor write
    Thread.sleep(1000);
    load.stop.set(true);
    t.join(10_000);
    long lastDue = load.acked.values().stream().mapToLong(Long::longValue).max().orElse(0);
    probe.verifyFiredOnce("ClusterIT", load.acked, lastDue + 10_000, "");
    probe.awaitOwners(nodes.get(0), Set.of("n0", "n1", "n2"), 15_000);   // and it rejoins the assignment
    // on waking it stopped the partitions whose local deadline had passed (or that a write found fenced)
    String metrics = probe.send(paused.baseUrl() + "/metrics", "GET", null).body();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^tickwheel_cluster_partitions_lost_total\\S* (\\S+)$")
        .matcher(metrics);
    assertThat(m.find()).as(metrics).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isPositive();
  }
}
