package io.tickwheel.store.redis.coordination;

import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.await;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.failure;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisClusterProcess;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Redis coordinator on a real Redis Cluster (3 masters, 1 replica each): partitions spread over the masters,
 * leases renewed across slots in one call, fencing, joins, membership and broadcasts cluster-wide, and a master
 * failover (the last test: it kills a master).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterModeCoordinatorTest {

  private static final int PARTITIONS = 16;
  private static RedisClusterProcess cluster;
  private static Vertx vertx;
  private static RedisClusterCoordinator a;
  private static RedisClusterCoordinator b;

  @BeforeAll
  static void start() {
    cluster = RedisClusterProcess.start(3, 1);
    vertx = Vertx.vertx();
    a = await(RedisClusterCoordinator.open(vertx, RedisClusterModePartitionStoreContractTest.options(cluster, "tw")));
    b = await(RedisClusterCoordinator.open(vertx, RedisClusterModePartitionStoreContractTest.options(cluster, "tw")));
    assertThat(await(a.join("a", "http://a", PARTITIONS))).isEqualTo(PARTITIONS);
    assertThat(await(b.join("b", "http://b", PARTITIONS))).isEqualTo(PARTITIONS);
  }

  @AfterAll
  static void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
    if (vertx != null) {
      await(vertx.close());
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void partitionsSpreadOverTheMastersAndOneRenewCallRenewsLeasesOnEveryMaster() {
    Set<Integer> masters = new HashSet<>();
    for (int p = 0; p < PARTITIONS; p++) {
      masters.add(cluster.masterOf(a.partitionTag(p) + ":lease").port());
    }
    assertThat(masters).as("16 partitions over 3 masters").hasSize(3);

    int[] ps = new int[PARTITIONS];
    long[] epochs = new long[PARTITIONS];
    for (int p = 0; p < PARTITIONS; p++) {
      ps[p] = p;
      epochs[p] = await(a.acquire(p, "a", 10_000)).epoch();
      assertThat(await(b.acquire(p, "b", 10_000))).isNull();
    }
    long now = await(a.now());
    List<Lease> renewed = await(a.renew("a", ps, epochs, 20_000));
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(renewed.get(p).epoch()).isEqualTo(epochs[p]);
      assertThat(renewed.get(p).expiresAt()).isBetween(now + 20_000 - 1_000, now + 25_000);
    }
    List<Lease> leases = await(b.leases());
    assertThat(leases).hasSize(PARTITIONS);
    assertThat(leases).extracting(Lease::nodeId).containsOnly("a");
    for (int p = 0; p < PARTITIONS; p++) {
      await(a.release(p, "a", epochs[p]));
    }
  }

  @Test
  @Order(2)
  void aStaleEpochIsFencedOnTheClusterAndChangesNothing() {
    Lease l = await(a.acquire(9, "a", 10_000));
    TimerStore sa = a.partitionStore(9, l.epoch());
    await(sa.put(timer("x", 10)));
    await(a.release(9, "a", l.epoch()));
    Lease lb = await(b.acquire(9, "b", 10_000));
    assertThat(lb.epoch()).isGreaterThan(l.epoch());
    assertThat(failure(sa.put(timer("y", 10)))).isInstanceOf(StoreFencedException.class);
    assertThat(failure(sa.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 10, 11, null)))))
        .isInstanceOf(StoreFencedException.class);
    TimerStore sb = b.partitionStore(9, lb.epoch());
    assertThat(await(sb.get("y"))).isNull();
    assertThat(await(sb.lastSeq())).isZero();
    assertThat(await(sb.get("x"))).isNotNull();
    await(b.release(9, "b", lb.epoch()));
  }

  @Test
  @Order(2)
  void lastSeqsReadsEveryPartitionsSeqOnEveryMaster() {
    long[] before = await(b.lastSeqs());
    assertThat(before).hasSize(PARTITIONS);
    Lease l3 = await(a.acquire(3, "a", 10_000));
    Lease l12 = await(a.acquire(12, "a", 10_000));
    TimerStore s3 = a.partitionStore(3, l3.epoch());
    TimerStore s12 = a.partitionStore(12, l12.epoch());
    await(s3.put(timer("x", 10)));
    await(s12.put(timer("y", 20)));
    await(s3.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 10, 11, null))));
    await(s12.recordFirings(List.of(new FiringRequest("y", 1, 0, true, 20, 21, null))));
    long[] after = await(b.lastSeqs());
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(after[p]).as("partition " + p).isEqualTo(before[p] + (p == 3 || p == 12 ? 1 : 0));
    }
    await(a.release(3, "a", l3.epoch()));
    await(a.release(12, "a", l12.epoch()));
  }

  @Test
  @Order(3)
  void joinsMembershipTopicPausesAndBroadcastsWorkClusterWide() {
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx,
        RedisClusterModePartitionStoreContractTest.options(cluster, "tw")));
    try {
      assertThat(failure(c.join("c", "http://c", 8))).isInstanceOf(ClusterConfigException.class)
          .hasMessageContaining("16 partitions");
      await(a.heartbeat("a", "http://a", 10_000));
      await(b.heartbeat("b", "http://b", 10_000));
      assertThat(await(c.members())).extracting(Member::nodeId).containsExactly("a", "b");
      await(a.setTopicPaused("t", true));
      assertThat(await(c.pausedTopics())).containsExactly("t");
      await(a.setTopicPaused("t", false));

      List<String> got = new CopyOnWriteArrayList<>();
      c.onBroadcast(got::add);
      List<String> gotA = new CopyOnWriteArrayList<>();
      a.onBroadcast(gotA::add);
      await(b.broadcast("f 1 2"));
      Awaitility.await("the broadcast on c and a").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> got.contains("f 1 2") && gotA.contains("f 1 2"));
    } finally {
      await(c.close());
    }
  }

  @Test
  @Order(4)
  void partitionStoresAndLeasesSurviveAFlushedScriptCacheOnEveryNode() {
    Lease l = await(a.acquire(5, "a", 10_000));
    TimerStore s = a.partitionStore(5, l.epoch());
    await(s.put(timer("x", 1)));
    for (RedisServerProcess n : cluster.nodes()) {
      assertThat(n.command("SCRIPT", "FLUSH")).isEqualTo("+OK");
    }
    await(s.put(timer("y", 2)));
    assertThat(await(a.renew("a", new int[] {5}, new long[] {l.epoch()}, 10_000)).get(0)).isNotNull();
    assertThat(await(b.acquire(6, "b", 10_000))).isNotNull();
    assertThat(await(s.get("y"))).isNotNull();
    await(a.release(5, "a", l.epoch()));
    assertThat(failure(s.put(timer("z", 3)))).isInstanceOf(StoreFencedException.class);
  }

  @Test
  @Order(10)
  void aPartitionStoreFailsAsUnavailableDuringAMasterFailoverAndWorksAgainAfterItAndBroadcastsResume() {
    // a partition on the first endpoint's node, where the broadcast subscriptions are: they must move too
    int p = 0;
    for (int q = 0; q < PARTITIONS; q++) {
      if (cluster.masterOf(a.partitionTag(q) + ":lease") == cluster.nodes().get(0)) {
        p = q;
        break;
      }
    }
    Lease l = await(a.acquire(p, "a", 120_000));
    TimerStore s = a.partitionStore(p, l.epoch());
    await(s.put(timer("before", 10)));
    RedisServerProcess master = cluster.masterOf(a.partitionTag(p) + ":lease");
    cluster.awaitReplicated(master, 10_000);

    List<Throwable> failures = new ArrayList<>();
    long t0 = System.nanoTime();
    master.kill9();
    // during and right after the failover a call fails as unavailable (never as fenced or as a fault)
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger i = new AtomicInteger();
    Awaitility.await("5 writes after the failover").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100)).until(() -> {
          try {
            s.put(timer("after" + i.getAndIncrement(), 20)).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
            ok.incrementAndGet();
          } catch (java.util.concurrent.ExecutionException e) {
            failures.add(e.getCause());
          }
          return ok.get() >= 5;
        });
    long recoveredMs = (System.nanoTime() - t0) / 1_000_000;
    RedisServerProcess promoted = cluster.awaitFailover(master, a.partitionTag(p) + ":lease", 30_000);
    assertThat(promoted.port()).isNotEqualTo(master.port());
    assertThat(failures).as("calls while the master was down and not yet replaced").isNotEmpty();
    assertThat(failures).allSatisfy(f -> assertThat(f).isInstanceOf(StoreUnavailableException.class));
    assertThat(await(s.get("before"))).as("replicated before the kill").isNotNull();
    assertThat(await(a.renew("a", new int[] {p}, new long[] {l.epoch()}, 120_000)).get(0)).isNotNull();
    List<String> got = new CopyOnWriteArrayList<>();
    b.onBroadcast(got::add);
    Awaitility.await("a broadcast after the failover").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
        .until(() -> {
          a.broadcast("after failover");
          return got.contains("after failover");
        });
    System.out.println("failover: writes worked again " + recoveredMs + " ms after the kill; " + failures.size()
        + " calls failed as unavailable meanwhile");
  }
}
