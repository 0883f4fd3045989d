package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.DueIndexContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisClusterProcess;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The due-index contract against fenced partition stores of a {@link RedisClusterCoordinator} on a real Redis Cluster
 * (3 masters, no replicas), where each write is its script's fenced twin in the partition's hash slot; each test takes
 * another partition, so the tests' data spreads over the masters. As {@link RedisPartitionDueIndexTest}, each store
 * reads its counts before the contract's writes, so the count reads see what the scripts kept.
 */
class RedisClusterModePartitionDueIndexTest extends DueIndexContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisClusterProcess cluster;
  private final List<RedisClusterCoordinator> coordinators = new ArrayList<>();
  private String prefix;
  private int partition;
  private long epoch;

  @BeforeAll
  static void startCluster() {
    cluster = RedisClusterProcess.start(3, 0);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void closeCoordinators() {
    for (RedisClusterCoordinator c : coordinators) {
      await(c.close());
    }
    coordinators.clear();
  }

  private RedisClusterCoordinator coordinator() {
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx,
        RedisClusterModePartitionStoreContractTest.options(cluster, prefix)));
    coordinators.add(c);
    await(c.join("n1", "http://n1", 64));
    return c;
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    int n = N.incrementAndGet();
    prefix = "cdue" + n;
    partition = n % 64;
    RedisClusterCoordinator c = coordinator();
    Lease l = await(c.acquire(partition, "n1", 3_600_000));
    epoch = l.epoch();
    TimerStore s = c.partitionStore(partition, epoch);
    await(((DueIndex) s).pausedCount());
    return s;
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return coordinator().partitionStore(partition, epoch);
  }
}
