package io.tickwheel.store.redis.coordination;

import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.await;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.failure;
import static io.tickwheel.store.redis.coordination.RedisClusterCoordinatorTest.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.coordination.StoreFencedException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.testkit.RedisClusterProcess;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code minReplicasAcked} on a real Redis Cluster (3 masters, 1 replica each): each write goes to its slot's master
 * as {@code MULTI, write, EXEC, WAIT}, succeeds while that master's replica is in sync, fails when it is paused, and
 * a fenced write is still refused as a fence.
 */
class RedisClusterReplicaAckTest {

  private static final int PARTITIONS = 8;
  private static RedisClusterProcess cluster;
  private static Vertx vertx;
  private final List<RedisClusterCoordinator> coordinators = new ArrayList<>();
  private RedisServerProcess paused;

  @BeforeAll
  static void start() {
    cluster = RedisClusterProcess.start(3, 1);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    try {
      if (vertx != null) {
        await(vertx.close());
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  @AfterEach
  void resumeAndClose() {
    if (paused != null && paused.isRunning()) {
      paused.resume();
    }
    for (RedisClusterCoordinator c : coordinators) {
      await(c.close());
    }
  }

  /** A replica starved of CPU (a loaded CI machine) once took longer than 500 ms to acknowledge the join. */
  private static final long ACK_TIMEOUT_MS = 2_000;

  private RedisClusterCoordinator coordinator(String prefix, int minReplicasAcked) {
    RedisStoreOptions o = RedisClusterModePartitionStoreContractTest.options(cluster, prefix)
        .setMinReplicasAcked(minReplicasAcked).setReplicaAckTimeoutMs(ACK_TIMEOUT_MS);
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx, o));
    coordinators.add(c);
    await(c.join("n1", "http://n1", PARTITIONS));
    return c;
  }

  /** The running replica of {@code master}. */
  private static RedisServerProcess replicaOf(RedisServerProcess master) {
    for (RedisServerProcess n : cluster.nodes()) {
      String info = n.isRunning() ? n.command("INFO", "replication") : "";
      if (info.contains("role:slave") && info.contains("master_port:" + master.port() + "\r")) {
        return n;
      }
    }
    throw new IllegalStateException("no replica of " + master.port());
  }

  private static long dbsize(RedisServerProcess n) {
    return Long.parseLong(n.command("DBSIZE").substring(1));
  }

  @Test
  void aWriteSucceedsWithItsMastersReplicaAndFailsAsAppliedWhileThatReplicaIsPaused() {
    RedisClusterCoordinator acked = coordinator("cack", 1);
    RedisClusterCoordinator plain = coordinator("cack", 0);
    int p = 3;
    Lease l = await(acked.acquire(p, "n1", 3_600_000));
    TimerStore store = acked.partitionStore(p, l.epoch());
    RedisServerProcess master = cluster.masterOf(acked.partitionTag(p) + ":timers");
    RedisServerProcess replica = replicaOf(master);

    long before = dbsize(replica);
    await(store.createAll(List.of(timer("a", 10))));
    assertThat(dbsize(replica)).as("the timers hash, due index, topic counts and topic names on the replica at "
        + "completion").isEqualTo(before + 4);
    await(store.recordFirings(List.of(new FiringRequest("a", 1, 0, true, 10, 11, null))));

    paused = replica;
    replica.pause();
    long t0 = System.nanoTime();
    Throwable e = failure(store.put(timer("b", 20)));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("0 of 1 replicas")
        .hasMessageContaining(ACK_TIMEOUT_MS + " ms");
    assertThat(((StoreUnavailableException) e).mayHaveApplied()).isTrue();
    assertThat(ms).isBetween(ACK_TIMEOUT_MS, ACK_TIMEOUT_MS + 2_500L);
    assertThat(master.command("HEXISTS", acked.partitionTag(p) + ":timers", "b")).as("applied on the master")
        .isEqualTo(":1");
    await(plain.partitionStore(p, l.epoch()).put(timer("c", 30))); // without WAIT: succeeds all the same

    replica.resume();
    paused = null;
    cluster.awaitReplicated(master, 10_000);
    await(store.put(timer("d", 40)));
    assertThat(await(store.get("d"))).isNotNull();
  }

  @Test
  void aFencedWriteIsStillRefusedAsFencedAndChangesNothing() {
    RedisClusterCoordinator acked = coordinator("cfence", 1);
    int p = 5;
    Lease l = await(acked.acquire(p, "n1", 3_600_000));
    await(acked.partitionStore(p, l.epoch()).put(timer("x", 10)));
    Throwable e = failure(acked.partitionStore(p, l.epoch() + 1).put(timer("y", 10)));
    assertThat(e).isInstanceOf(StoreFencedException.class);
    assertThat(((StoreFencedException) e).mayHaveApplied()).isFalse();
    assertThat(await(acked.partitionStore(p, l.epoch()).get("y"))).isNull();
  }
}
