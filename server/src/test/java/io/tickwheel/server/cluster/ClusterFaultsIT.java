package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.core.coordination.Partitions;
import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.TestVertx;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.coordination.RedisClusterCoordinator;
import io.tickwheel.testkit.RedisServerProcess;
import io.tickwheel.testkit.ServerProcess;
import io.tickwheel.testkit.TcpProxy;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster faults under a steady create load, with real server jars on one redis-server started by the test and the
 * same checker as {@link ClusterIT} (every partition's firing log read from Redis: acknowledged, fired, duplicates,
 * early, lost): a rolling restart of every node, growing 2 → 4 nodes and shrinking back to 2, and a node cut off from
 * Redis while alive (its Redis connections run through a {@link TcpProxy}). Each fault is repeated {@link #ROUNDS}
 * times under one load. Leases are 3 s.
 */
class ClusterFaultsIT {

  static final int P = 32;
  static final long LEASE = 3000;
  static final Duration START = Duration.ofSeconds(40);
  /** How many times each fault is repeated in its test (under one load, checked once over all of it). */
  static final int ROUNDS = 3;
  /** How many more creates the load must have acknowledged before the next step of a fault (about a second's worth). */
  static final int LOAD_STEP = 100;

  @TempDir
  Path tmp;
  RedisServerProcess redis;
  final List<ServerProcess> nodes = new CopyOnWriteArrayList<>();
  final List<ServerProcess> stopped = new CopyOnWriteArrayList<>();
  final List<TcpProxy> proxies = new ArrayList<>();
  Vertx vertx;
  RedisClusterCoordinator checker;
  ClusterProbe probe;
  int launches;

  @BeforeEach
  void start() {
    redis = RedisServerProcess.start();
    vertx = TestVertx.create();
    checker = TestVertx.await(RedisClusterCoordinator.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())));
    TestVertx.await(checker.join("checker", "none", P));
    probe = new ClusterProbe(checker, P);
  }

  @AfterEach
  void stop() {
    nodes.forEach(ServerProcess::close);
    stopped.forEach(ServerProcess::close);
    proxies.forEach(TcpProxy::close);
    if (checker != null) {
      TestVertx.await(checker.close());
    }
    TestVertx.close(vertx);
    redis.close();
  }

  /** The launcher of node {@code id} on {@code redisUri}. */
  ServerProcess.Launcher node(String id, String redisUri) {
    return ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--store", "redis", "--redis", redisUri, "--cluster", "--node-id", id, "--partitions", "" + P,
            "--lease-ms", "" + LEASE, "--port", "0", "--host", "127.0.0.1")
        .logs(tmp, id + "-" + launches++);
  }

  /** Starts node {@code id} on {@code redisUri} and waits until it listens. */
  ServerProcess launch(String id, String redisUri) {
    return node(id, redisUri).startAndAwaitListening(START);
  }

  ServerProcess launch(String id) {
    return launch(id, redis.uri());
  }

  /** {@link #launchAll} of the nodes {@code ids} on the test's Redis, in the order of {@code ids}. */
  List<ServerProcess> launchNodes(Collection<String> ids) {
    return launchAll(ids.stream().map(id -> node(id, redis.uri())).toList());
  }

  /**
   * Starts {@code launchers} side by side (each JVM takes seconds on a busy machine) and waits until they all
   * listen; returned in the same order. Kills them all when one does not listen.
   */
  List<ServerProcess> launchAll(List<ServerProcess.Launcher> launchers) {
    List<ServerProcess> started = new ArrayList<>();
    try {
      for (ServerProcess.Launcher l : launchers) {
        started.add(l.start());
      }
      started.forEach(p -> p.awaitListening(START));
      return started;
    } catch (RuntimeException e) {
      started.forEach(ServerProcess::close);
      throw e;
    }
  }

  /** How many partitions {@code node} serves now, by its own account. */
  int served(ServerProcess node) throws Exception {
    JsonObject c = probe.cluster(node);
    String self = c.getString("nodeId");
    int n = 0;
    for (Object o : c.getJsonArray("owners")) {
      if (self.equals(((JsonObject) o).getString("node"))) {
        n++;
      }
    }
    return n;
  }

  /** {@link #awaitOwners} through every live node (each one's view has settled). */
  long awaitEveryView(Set<String> ids, long timeoutMs) throws Exception {
    long at = 0;
    for (ServerProcess n : nodes) {
      at = Math.max(at, probe.awaitOwners(n, ids, timeoutMs));
    }
    return at;
  }

  Map<Integer, String> owners(ServerProcess via) throws Exception {
    Map<Integer, String> out = new HashMap<>();
    probe.cluster(via).getJsonArray("owners").forEach(o -> out.put(((JsonObject) o).getInteger("partition"),
        ((JsonObject) o).getString("node")));
    return out;
  }

  /** Counts and checks: every acknowledged timer fired exactly once, never before its due time. */
  Map<String, List<Firing>> verify(String what, ClusterLoad load, long waitUntil) {
    return probe.verifyFiredOnce("ClusterFaultsIT " + what, load.acked, waitUntil,
        ", refused " + load.refusalSummary());
  }

  /** A create load through the live nodes. */
  ClusterLoad load() {
    return new ClusterLoad(probe, () -> new ArrayList<>(nodes)).begin();
  }

  /** The base URLs of the nodes this test stopped. */
  List<String> stoppedUrls() {
    return stopped.stream().map(ServerProcess::baseUrl).toList();
  }

  /** SIGTERMs {@code node}, which must exit 0 within 10 s. */
  void sigterm(ServerProcess node) {
    node.sigterm();
    assertThat(node.waitForExit(Duration.ofSeconds(10))).as(node.describe()).isTrue();
    assertThat(node.exitValue()).as(node.describe()).isZero();
  }

  @Test
  void rollingRestartOfEveryNodeUnderLoadLosesNothingFiresNothingTwiceNothingEarly() throws Exception {
    Set<String> all = new TreeSet<>(List.of("n0", "n1", "n2"));
    nodes.addAll(launchNodes(all));
    awaitEveryView(all, 20_000);
    try (ClusterLoad load = load()) {
      load.awaitMoreAcked(LOAD_STEP);
      for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 3; i++) {
          String id = "n" + i;
          ServerProcess old = nodes.get(i);
          long t0 = System.currentTimeMillis();
          sigterm(old);
          Set<String> rest = new TreeSet<>(all);
          rest.remove(id);
          long handedOver = probe.awaitOwners(nodes.get((i + 1) % 3), rest, 10_000);
          ServerProcess fresh = launch(id);
          nodes.set(i, fresh);
          stopped.add(old);
          long back = awaitEveryView(all, 20_000);
          System.out.println("ClusterFaultsIT rolling restart " + (round + 1) + " of " + id + ": handed over "
              + (handedOver - t0) + " ms after SIGTERM, owns its share again " + (back - fresh.readyAtMs())
              + " ms after it listened");
          load.awaitMoreAcked(LOAD_STEP);     // the load goes on through the settled views before the next restart
        }
      }
      long lastDue = load.finish();
      verify("rolling restart", load, lastDue + 10_000);
      load.assertOnlyRetryableRefusals(stoppedUrls());
    }
  }

  @Test
  void growingFromTwoToFourNodesAndShrinkingBackToTwoUnderLoadLosesNothingFiresNothingTwiceNothingEarly()
      throws Exception {
    List<String> ids = List.of("n0", "n1", "n2", "n3");
    Map<String, ServerProcess> live = new HashMap<>();
    List<ServerProcess> first = launchNodes(List.of("n0", "n1"));
    live.put("n0", first.get(0));
    live.put("n1", first.get(1));
    nodes.addAll(first);
    awaitEveryView(live.keySet(), 20_000);
    try (ClusterLoad load = load()) {
      load.awaitMoreAcked(LOAD_STEP);
      for (int round = 0; round < ROUNDS; round++) {
        List<String> old = new ArrayList<>(new TreeSet<>(live.keySet()));
        List<String> added = new ArrayList<>();
        long t0 = System.currentTimeMillis();
        for (String id : ids) {
          if (!live.containsKey(id)) {
            added.add(id);
          }
        }
        List<ServerProcess> joined = launchNodes(added);
        for (int i = 0; i < added.size(); i++) {
          live.put(added.get(i), joined.get(i));
          nodes.add(joined.get(i));
        }
        long spread = awaitEveryView(Set.copyOf(ids), 20_000);
        Map<Integer, String> owners = owners(nodes.get(0));
        for (String id : ids) {
          assertThat(owners).as("every node owns partitions").containsValue(id);
        }
        System.out.println("ClusterFaultsIT 2 -> 4 (" + (round + 1) + ", added " + added
            + "): ownership spread over 4 nodes " + (spread - t0) + " ms after starting the 2 new ones");
        load.awaitMoreAcked(LOAD_STEP);       // through 4 nodes
        List<ServerProcess> leaving = new ArrayList<>();
        for (String id : List.of(old.get(round % 2), added.get(round % 2))) {   // one old, one new; varies by round
          leaving.add(live.remove(id));
        }
        long t1 = System.currentTimeMillis();
        leaving.forEach(ServerProcess::sigterm);
        nodes.removeAll(leaving);
        stopped.addAll(leaving);
        long shrunk = awaitEveryView(live.keySet(), 10_000);
        System.out.println("ClusterFaultsIT 4 -> 2 (" + (round + 1) + ", remaining " + live.keySet()
            + "): partitions of the 2 SIGTERMed nodes taken over in " + (shrunk - t1) + " ms");
        for (ServerProcess s : leaving) {
          assertThat(s.waitForExit(Duration.ofSeconds(10))).as(s.describe()).isTrue();
          assertThat(s.exitValue()).as(s.describe()).isZero();
        }
        load.awaitMoreAcked(LOAD_STEP);       // through the 2 left
      }
      long lastDue = load.finish();
      verify("2 -> 4 -> 2", load, lastDue + 10_000);
      load.assertOnlyRetryableRefusals(stoppedUrls());
    }
  }

  @Test
  void aNodeCutOffFromRedisButAliveStopsItsPartitionsBeforeItsLeaseEndsOthersTakeOverAndItRejoinsAfterHealing()
      throws Exception {
    TcpProxy proxy = TcpProxy.start(redis.port());
    proxies.add(proxy);
    nodes.addAll(launchAll(List.of(node("n0", redis.uri()), node("n1", redis.uri()),
        node("n2", "redis://127.0.0.1:" + proxy.port()))));
    ServerProcess victim = nodes.get(2);
    Set<String> all = Set.of("n0", "n1", "n2");
    awaitEveryView(all, 20_000);
    Map<Integer, String> ownerBefore = owners(nodes.get(0));
    long lastHeal = 0;
    int ofVictim = 0;
    Set<Integer> victimsPartitions = new TreeSet<>();
    ownerBefore.forEach((p, node) -> {
      if ("n2".equals(node)) {
        victimsPartitions.add(p);
      }
    });
    try (ClusterLoad load = load()) {
      List<long[]> cuts = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        // timers of the victim's partitions that come due while it is cut (it stays cut for at least its lease)
        load.awaitAcked("3 timers of the victim's partitions due in 1 s or later", acked -> {
          long soon = System.currentTimeMillis() + 1000;
          return acked.entrySet().stream().filter(a -> a.getValue() >= soon)
              .filter(a -> victimsPartitions.contains(Partitions.of(a.getKey(), P))).count() >= 3;
        });
        int before = served(victim);
        assertThat(before).isPositive();
        long cutAt = System.currentTimeMillis();
        proxy.cut();
        // the cut node, alive and answering HTTP, stops serving before any lease it held can end
        await("the cut node serving no partition " + (LEASE + 2000) + " ms after the cut")
            .atMost(Duration.ofMillis(LEASE + 2000)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
            .until(() -> served(victim) == 0);
        long stoppedAt = System.currentTimeMillis();
        long tookOver = probe.awaitOwners(nodes.get(0), Set.of("n0", "n1"), LEASE + 5000);
        System.out.println("ClusterFaultsIT cut " + (round + 1) + ": the cut node served " + before
            + " partitions and stopped them " + (stoppedAt - cutAt) + " ms after the cut (lease " + LEASE
            + " ms); the others owned them " + (tookOver - cutAt) + " ms after the cut");
        assertThat(stoppedAt - cutAt).isLessThan(LEASE);
        assertThat(tookOver - cutAt).isLessThanOrEqualTo(LEASE + 2000);
        // the others serve the victim's partitions while it is cut: one of its timers fired since the cut
        await("a timer of the cut node's partitions fired by the others while it is cut")
            .atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
            .until(() -> probe.firings(victimsPartitions).values().stream().flatMap(List::stream)
                .anyMatch(f -> f.firedAt() > cutAt));
        long healAt = System.currentTimeMillis();
        proxy.heal();
        cuts.add(new long[] {cutAt, healAt});
        long rejoined = awaitEveryView(all, 20_000);
        System.out.println("ClusterFaultsIT cut " + (round + 1) + ": after healing the node owns its share again in "
            + (rejoined - healAt) + " ms");
        assertThat(served(victim)).isPositive();
        lastHeal = healAt;
      }
      load.awaitMoreAcked(LOAD_STEP);         // through the healed cluster
      long lastDue = load.finish();
      Map<String, List<Firing>> fired = verify("cut from Redis", load, Math.max(lastDue, lastHeal) + 10_000);
      for (String id : load.acked.keySet()) {
        long firedAt = fired.get(id).get(0).firedAt();
        boolean whileCut = cuts.stream().anyMatch(c -> firedAt > c[0] && firedAt < c[1]);
        if ("n2".equals(ownerBefore.get(Partitions.of(id, P))) && whileCut) {
          ofVictim++;
        }
      }
      System.out.println("ClusterFaultsIT cut: " + ofVictim
          + " timers of the cut node's partitions fired while it was cut");
      assertThat(ofVictim).isPositive();
      load.assertOnlyRetryableRefusals(List.of(victim.baseUrl()));
    }
  }
}
