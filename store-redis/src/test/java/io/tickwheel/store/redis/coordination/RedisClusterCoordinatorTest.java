package io.tickwheel.store.redis.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.ClusterConfigException;
import io.tickwheel.core.coordination.Holder;
import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redis coordinator against a real standalone redis-server: leases, fencing, joins, membership, broadcasts. */
class RedisClusterCoordinatorTest {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private static Vertx vertx;
  private final List<RedisClusterCoordinator> opened = new ArrayList<>();
  private String prefix;
  private RedisClusterCoordinator a;
  private RedisClusterCoordinator b;

  @BeforeAll
  static void start() {
    redis = RedisServerProcess.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
    if (redis != null) {
      redis.close();
    }
  }

  @BeforeEach
  void twoNodes() {
    prefix = "coord" + N.incrementAndGet();
    a = open();
    b = open();
    assertThat(await(a.join("a", "http://a", 8))).isEqualTo(8);
    assertThat(await(b.join("b", "http://b", 8))).isEqualTo(8);
  }

  @AfterEach
  void close() {
    for (RedisClusterCoordinator c : opened) {
      await(c.close());
    }
  }

  private RedisStoreOptions options() {
    return new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix);
  }

  private RedisClusterCoordinator open() {
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx, options()));
    opened.add(c);
    return c;
  }

  private String leaseKey(int p) {
    return "{" + prefix + ":p:" + p + "}:lease";
  }

  // ---------------------------------------------------------------- leases

  @Test
  void twoProcessesWithOneNodeIdNeverShareALeaseOrEpochAndTheSecondIsRefusedWhileTheFirstIsAlive() {
    String first = Holder.of("a", "one");
    String second = Holder.of("a", "two");
    assertThat(await(a.heartbeat(first, "http://a1", 60_000))).extracting(Member::nodeId).contains("a");
    Throwable refused = failure(b.heartbeat(second, "http://a2", 60_000));
    assertThat(refused).isInstanceOfSatisfying(NodeIdInUseException.class, e -> {
      assertThat(e.nodeId()).isEqualTo("a");
      assertThat(e.address()).isEqualTo("http://a1");
      assertThat(e.lastSeenAt()).isPositive();
    }).isInstanceOf(ClusterConfigException.class);
    await(b.leave(second));                           // the refused one's leave does not remove the member
    assertThat(await(b.members())).extracting(Member::address).containsExactly("http://a1");
    Lease l = await(a.acquire(5, first, 60_000));
    assertThat(l.nodeId()).isEqualTo("a");
    assertThat(await(b.leases()).get(5).nodeId()).isEqualTo("a");
    assertThat(await(b.acquire(5, second, 60_000))).as("not handed the first's epoch").isNull();
    assertThat(await(b.renew(second, new int[] {5}, new long[] {l.epoch()}, 60_000))).containsExactly((Lease) null);
    await(b.release(5, second, l.epoch()));
    assertThat(await(b.leases()).get(5).expiresAt()).isEqualTo(l.expiresAt());
    // the first leaves: the second is accepted
    await(a.leave(first));
    assertThat(await(b.heartbeat(second, "http://a2", 60_000))).extracting(Member::address).containsExactly("http://a2");
  }

  @Test
  void aFreePartitionIsLeasedWithAnEpochOfAtLeastRedisTimeAndTheHolderRenewsItWithTheSameEpoch() {
    long before = await(a.now());
    Lease l = await(a.acquire(3, "a", 5_000));
    long after = await(a.now());
    assertThat(l.partition()).isEqualTo(3);
    assertThat(l.nodeId()).isEqualTo("a");
    assertThat(l.epoch()).isBetween(before, after);
    assertThat(l.expiresAt()).isBetween(before + 5_000, after + 5_000);

    Lease again = await(a.acquire(3, "a", 10_000));
    assertThat(again.epoch()).isEqualTo(l.epoch());
    assertThat(again.expiresAt()).isGreaterThanOrEqualTo(l.expiresAt() + 5_000 - (after - before));

    assertThat(await(b.acquire(3, "b", 5_000))).as("held by a").isNull();
    assertThat(await(b.leases()).get(3)).isEqualTo(new Lease(3, "a", l.epoch(), again.expiresAt()));
    assertThat(await(b.leases()).get(2)).isEqualTo(new Lease(2, null, 0, 0));
  }

  @Test
  void aReleasedLeaseGoesToTheNextNodeWithStoredEpochPlusOne() {
    Lease l = await(a.acquire(1, "a", 5_000));
    long high = l.epoch() + 1_000_000_000L; // ahead of Redis TIME: the next epoch must be exactly this + 1
    redis.command("HSET", leaseKey(1), "epoch", Long.toString(high));
    await(a.release(1, "b", high)); // not b's: nothing happens
    await(a.release(1, "a", l.epoch())); // not the stored epoch: nothing happens
    assertThat(await(b.acquire(1, "b", 5_000))).isNull();

    await(a.release(1, "a", high));
    Lease lb = await(b.acquire(1, "b", 5_000));
    assertThat(lb.nodeId()).isEqualTo("b");
    assertThat(lb.epoch()).isEqualTo(high + 1);
    assertThat(await(a.renew("a", new int[] {1}, new long[] {high}, 5_000))).containsExactly((Lease) null);
  }

  @Test
  void anExpiredLeaseCanNeitherBeRenewedNorKeptAndAnotherNodeTakesItWithANewEpoch() {
    Lease l = await(a.acquire(0, "a", 300));
    assertThat(await(b.acquire(0, "b", 5_000))).isNull();
    awaitRedisClockPast(l.expiresAt());
    assertThat(await(a.renew("a", new int[] {0}, new long[] {l.epoch()}, 5_000))).containsExactly((Lease) null);
    Lease lb = await(b.acquire(0, "b", 5_000));
    assertThat(lb.epoch()).isGreaterThan(l.epoch());
    assertThat(await(a.acquire(0, "a", 5_000))).as("b holds it now").isNull();
  }

  @Test
  void nodesRacingForAFreePartitionLeaveExactlyOneHolderWithOneEpoch() {
    List<Future<Lease>> racing = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      racing.add(a.acquire(7, "a", 5_000));
      racing.add(b.acquire(7, "b", 5_000));
    }
    java.util.Set<String> holders = new java.util.HashSet<>();
    java.util.Set<Long> epochs = new java.util.HashSet<>();
    for (Future<Lease> f : racing) {
      Lease l = await(f);
      if (l != null) {
        holders.add(l.nodeId());
        epochs.add(l.epoch());
      }
    }
    assertThat(holders).hasSize(1);
    assertThat(epochs).hasSize(1);
    Lease stored = await(a.leases()).get(7);
    assertThat(stored.nodeId()).isEqualTo(holders.iterator().next());
    assertThat(stored.epoch()).isEqualTo(epochs.iterator().next());
  }

  @Test
  void renewRenewsManyLeasesInOneCallAndReportsEachLostOneAsNull() {
    int[] ps = {0, 1, 2, 3, 4, 5, 6, 7};
    long[] epochs = new long[8];
    for (int p : ps) {
      epochs[p] = await(a.acquire(p, "a", 5_000)).epoch();
    }
    long[] asked = epochs.clone();
    asked[4] = epochs[4] - 1; // a stale epoch
    await(a.release(6, "a", epochs[6])); // released
    long now = await(a.now());
    List<Lease> renewed = await(a.renew("a", ps, asked, 20_000));
    assertThat(renewed).hasSize(8);
    for (int p : ps) {
      if (p == 4 || p == 6) {
        assertThat(renewed.get(p)).as("partition " + p).isNull();
      } else {
        assertThat(renewed.get(p).epoch()).isEqualTo(epochs[p]);
        assertThat(renewed.get(p).expiresAt()).isBetween(now + 20_000, now + 25_000);
      }
    }
    assertThat(await(b.renew("b", new int[] {0}, new long[] {epochs[0]}, 5_000))).containsExactly((Lease) null);
  }

  @Test
  void anEpochIsNeverIssuedAgainAfterTheLeaseKeyIsLostAsInARolledBackFailover() {
    Lease l = await(a.acquire(2, "a", 5_000));
    redis.command("DEL", leaseKey(2));
    awaitRedisClockPast(l.epoch());
    Lease lb = await(b.acquire(2, "b", 5_000));
    assertThat(lb.epoch()).isGreaterThan(l.epoch());
    TimerStore stale = a.partitionStore(2, l.epoch());
    assertThat(failure(stale.put(timer("x", 10)))).isInstanceOf(StoreFencedException.class);
  }

  // ---------------------------------------------------------------- fencing

  @Test
  void aWriteWithAStaleEpochIsRefusedAndChangesNothing() {
    Lease l = await(a.acquire(4, "a", 5_000));
    TimerStore sa = a.partitionStore(4, l.epoch());
    await(sa.put(timer("t1", 100)));
    await(sa.put(periodic("p1", 100, 50)));
    await(sa.recordFirings(List.of(new FiringRequest("p1", 1, 0, true, 100, 101, 
        new Timer("p1", "t2", Kind.FIXED_RATE, 50, 50, 0, Misfire.FIRE_ALL, "[1,2,3]", 1, 150, 1, 1)))));
    await(a.release(4, "a", l.epoch()));
    Lease lb = await(b.acquire(4, "b", 5_000));
    assertThat(lb.epoch()).isGreaterThan(l.epoch());

    assertFenced(sa.put(timer("t2", 100)), 4);
    assertFenced(sa.putAll(List.of(timer("t3", 100), timer("t4", 100))), 4);
    assertFenced(sa.createAll(List.of(timer("t5", 100))), 4);
    assertFenced(((io.tickwheel.core.store.DueIndex) sa).createAbsent(List.of(timer("t6", 100))), 4);
    assertFenced(sa.update(timer("t1", 999), 1), 4);
    assertFenced(sa.updateAll(List.of(timer("t1", 999)), new long[] {1}), 4);
    assertFenced(sa.remove("t1"), 4);
    assertFenced(sa.recordFirings(List.of(new FiringRequest("t1", 1, 0, true, 100, 102, null))), 4);
    assertFenced(sa.trimFirings(new Retention(1, 0), Long.MAX_VALUE / 2), 4);

    TimerStore reader = b.partitionReader(4);
    assertThat(await(reader.get("t1")).nextDueAt()).isEqualTo(100);
    assertThat(await(reader.get("p1")).nextDueAt()).isEqualTo(150);
    for (String id : List.of("t2", "t3", "t4", "t5", "t6")) {
      assertThat(await(reader.get(id))).as(id).isNull();
    }
    assertThat(await(reader.lastSeq())).isEqualTo(1);
    assertThat(await(reader.readFirings(0, 10))).hasSize(1);

    TimerStore sb = b.partitionStore(4, lb.epoch());
    assertThat(await(((io.tickwheel.core.store.DueIndex) sb).createAbsent(List.of(timer("t2", 100))))).isEmpty();
    assertThat(await(((io.tickwheel.core.store.DueIndex) sb).createAbsent(List.of(timer("t2", 200)))))
        .containsExactly("t2");
    assertThat(await(reader.get("t2"))).isNotNull();
  }

  @Test
  void aWriteAfterTheLeaseExpiredIsRefusedEvenWithNoOtherHolder() {
    Lease l = await(a.acquire(5, "a", 300));
    TimerStore sa = a.partitionStore(5, l.epoch());
    await(sa.put(timer("t1", 100)));
    awaitRedisClockPast(l.expiresAt());
    assertFenced(sa.put(timer("t2", 100)), 5);
    assertFenced(sa.remove("t1"), 5);
    assertFenced(((io.tickwheel.core.store.DueIndex) sa).createAbsent(List.of(timer("t3", 100))), 5);
    assertThat(await(sa.get("t1"))).isNotNull();
    assertThat(await(sa.get("t2"))).isNull();
    assertThat(await(sa.get("t3"))).isNull();
  }

  @Test
  void aPartitionReaderReadsTheOwnersDataAndRefusesEveryWrite() {
    Lease l = await(a.acquire(6, "a", 5_000));
    await(a.partitionStore(6, l.epoch()).put(timer("t1", 100)));
    TimerStore r = b.partitionReader(6);
    assertThat(await(r.get("t1")).nextDueAt()).isEqualTo(100);
    assertThat(failure(r.put(timer("t2", 1)))).isInstanceOf(StoreFaultException.class)
        .isNotInstanceOf(StoreFencedException.class);
    assertThat(failure(r.remove("t1"))).isInstanceOf(StoreFaultException.class);
    assertThat(await(r.get("t1"))).isNotNull();
  }

  @Test
  void partitionsKeepTheirOwnDataAndSeqUnderTheirOwnHashTagBesideTheirLease() {
    Lease l0 = await(a.acquire(0, "a", 5_000));
    Lease l7 = await(a.acquire(7, "a", 5_000));
    TimerStore s0 = a.partitionStore(0, l0.epoch());
    TimerStore s7 = a.partitionStore(7, l7.epoch());
    await(s0.put(timer("x", 10)));
    await(s7.put(timer("x", 20)));
    await(s7.put(timer("y", 30)));
    await(s7.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 20, 21, null))));
    assertThat(await(s0.get("x")).nextDueAt()).isEqualTo(10);
    assertThat(await(s0.lastSeq())).isEqualTo(0);
    assertThat(await(s7.lastSeq())).isEqualTo(1);
    assertThat(redis.command("EXISTS", "{" + prefix + ":p:7}:timers", "{" + prefix + ":p:7}:seq",
        "{" + prefix + ":p:7}:log", "{" + prefix + ":p:7}:lease")).isEqualTo(":4");
    assertThat(redis.command("EXISTS", "{" + prefix + "}:timers", "{" + prefix + "}:meta")).isEqualTo(":0");
  }

  @Test
  void lastSeqsGivesEveryPartitionsLastSeqInOneCallAndFailsBeforeJoin() {
    assertThat(await(b.lastSeqs())).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
    Lease l2 = await(a.acquire(2, "a", 5_000));
    Lease l7 = await(a.acquire(7, "a", 5_000));
    TimerStore s2 = a.partitionStore(2, l2.epoch());
    TimerStore s7 = a.partitionStore(7, l7.epoch());
    await(s2.put(timer("x", 10)));
    await(s7.put(timer("y", 20)));
    await(s7.put(timer("z", 30)));
    await(s2.recordFirings(List.of(new FiringRequest("x", 1, 0, true, 10, 11, null))));
    await(s7.recordFirings(List.of(new FiringRequest("y", 1, 0, true, 20, 21, null),
        new FiringRequest("z", 1, 0, true, 30, 31, null))));
    assertThat(await(b.lastSeqs())).containsExactly(0, 0, 1, 0, 0, 0, 0, 2);
    assertThat(await(b.lastSeqs())[7]).isEqualTo(await(b.partitionReader(7).lastSeq()));
    assertThat(failure(open().lastSeqs())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closingAPartitionStoreEndsThatHandleOnlyNotTheSharedConnection() {
    Lease l = await(a.acquire(1, "a", 5_000));
    TimerStore s1 = a.partitionStore(1, l.epoch());
    await(s1.close());
    assertThat(failure(s1.get("x"))).isInstanceOf(io.tickwheel.core.store.StoreClosedException.class);
    assertThat(failure(s1.put(timer("x", 1)))).isInstanceOf(io.tickwheel.core.store.StoreClosedException.class);
    await(a.partitionStore(1, l.epoch()).put(timer("x", 1)));
    assertThat(await(a.members())).isEmpty();
  }

  @Test
  void aPartitionStoreSurvivesAFlushedScriptCache() {
    Lease l = await(a.acquire(3, "a", 5_000));
    TimerStore s = a.partitionStore(3, l.epoch());
    await(s.put(timer("x", 1)));
    assertThat(redis.command("SCRIPT", "FLUSH")).isEqualTo("+OK");
    await(s.put(timer("y", 2)));
    assertThat(await(a.renew("a", new int[] {3}, new long[] {l.epoch()}, 5_000)).get(0)).isNotNull();
    await(a.release(3, "a", l.epoch()));
    redis.command("SCRIPT", "FLUSH");
    assertFenced(s.put(timer("z", 3)), 3);
    assertThat(await(s.get("y"))).isNotNull();
    assertThat(await(s.get("z"))).isNull();
  }

  // ---------------------------------------------------------------- joins

  @Test
  void aNodeWithAnotherPartitionCountIsRefusedNamingBothCounts() {
    RedisClusterCoordinator c = open();
    Throwable t = failure(c.join("c", "http://c", 16));
    assertThat(t).isInstanceOf(ClusterConfigException.class)
        .hasMessageContaining("8 partitions").hasMessageContaining("--partitions 16");
  }

  @Test
  void aClusterNodeRefusesAStoreASingleNodeUsesAndASingleNodeRefusesAClusterStore() {
    String single = "single" + N.incrementAndGet();
    RedisTimerStore s = await(RedisTimerStore.open(vertx, options().setKeyPrefix(single)));
    await(s.close());
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx, options().setKeyPrefix(single)));
    opened.add(c);
    assertThat(failure(c.join("c", "http://c", 8))).isInstanceOf(ClusterConfigException.class)
        .hasMessageContaining("single tickwheel node").hasMessageContaining("--cluster");

    Throwable t = failure(RedisTimerStore.open(vertx, options()));
    assertThat(t).isInstanceOf(ClusterConfigException.class).hasMessageContaining("cluster")
        .hasMessageContaining("8 partitions").hasMessageContaining("--cluster");
    assertThat(redis.command("EXISTS", "{" + prefix + "}:meta")).isEqualTo(":0");
  }

  @Test
  void aRejoiningNodeWithTheSameCountIsAccepted() {
    assertThat(await(open().join("c", "http://c", 8))).isEqualTo(8);
    assertThat(redis.command("HGET", "{" + prefix + "}:cluster", "partitions")).isEqualTo("8");
  }

  // ---------------------------------------------------------------- membership

  @Test
  void membersAreTheNodesWhoseHeartbeatIsWithinItsTtlSortedById() {
    long before = await(a.now());
    List<Member> ms = await(b.heartbeat("b", "http://b:1", 5_000));
    assertThat(ms).extracting(Member::nodeId).containsExactly("b");
    ms = await(a.heartbeat("a", "http://a:1", 300));
    assertThat(ms).extracting(Member::nodeId).containsExactly("a", "b");
    assertThat(ms.get(0).address()).isEqualTo("http://a:1");
    assertThat(ms.get(0).lastSeenAt()).isBetween(before, await(a.now()));
    awaitRedisClockPast(ms.get(0).lastSeenAt() + 300);   // its heartbeat's 300 ms ran out
    assertThat(await(b.members())).extracting(Member::nodeId).containsExactly("b");
    await(a.heartbeat("a", "http://a:1", 5_000));
    assertThat(await(b.members())).extracting(Member::nodeId).containsExactly("a", "b");
    await(a.leave("a"));
    assertThat(await(b.members())).extracting(Member::nodeId).containsExactly("b");
  }

  // ---------------------------------------------------------------- broadcasts and topics

  @Test
  void aBroadcastReachesEveryNodeIncludingTheSenderAndAgainAfterTheSubscriptionWasKilled() {
    List<String> gotA = new CopyOnWriteArrayList<>();
    List<String> gotB = new CopyOnWriteArrayList<>();
    a.onBroadcast(gotA::add);
    b.onBroadcast(gotB::add);
    await(a.broadcast("f 3 17"));
    Awaitility.await("the broadcast on both").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> gotA.contains("f 3 17") && gotB.contains("f 3 17"));

    redis.command("CLIENT", "KILL", "TYPE", "pubsub");
    Awaitility.await("a broadcast on both after the kill").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50)).until(() -> {
      await(b.broadcast("again"));
      return gotA.contains("again") && gotB.contains("again");
    });
  }

  @Test
  void topicPausesAreClusterWideAndEveryPartitionStoreSeesThem() {
    await(a.setTopicPaused("billing", true));
    assertThat(await(b.pausedTopics())).containsExactly("billing");
    assertThat(await(b.partitionReader(3).pausedTopics())).containsExactly("billing");
    await(b.setTopicPaused("billing", false));
    assertThat(await(a.pausedTopics())).isEmpty();
  }

  @Test
  void theWebhookSecretIsTheClustersTheFirstOneStoredWinsAndEveryPartitionStoreSeesIt() {
    assertThat(await(a.webhookSecret("whsec_first"))).isEqualTo("whsec_first");
    assertThat(await(b.webhookSecret("whsec_second"))).isEqualTo("whsec_first");
    assertThat(await(b.partitionReader(5).webhookSecret("whsec_third"))).isEqualTo("whsec_first");
  }

  // ---------------------------------------------------------------- helpers

  private static void assertFenced(Future<?> f, int partition) {
    Throwable t = failure(f);
    assertThat(t).isInstanceOf(StoreFencedException.class);
    assertThat(((StoreFencedException) t).partition()).isEqualTo(partition);
    assertThat(((StoreFencedException) t).mayHaveApplied()).isFalse();
  }

  /**
   * Waits until Redis's clock ({@code TIME}, on which lease and heartbeat expiries and new epochs are measured) is past
   * {@code at}, epoch ms.
   */
  private void awaitRedisClockPast(long at) {
    Awaitility.await("Redis's clock past " + at).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> await(a.now()) > at);
  }

  static Timer timer(String id, long due) {
    return new Timer(id, "t1", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":\"" + id + "\"}", 1, due, 0, 1);
  }

  static Timer periodic(String id, long due, long period) {
    return new Timer(id, "t2", Kind.FIXED_RATE, period, period, 0, Misfire.FIRE_ALL, "[1,2,3]", 1, due, 0, 1);
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("call failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError("call did not complete: " + e, e);
    }
  }

  static Throwable failure(Future<?> f) {
    try {
      Object v = f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + v);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("call did not complete: " + e, e);
    }
  }
}
