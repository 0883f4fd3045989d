package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.store.DueIndexContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisClusterProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The due-index contract against fenced partition stores of a {@link RedisClusterCoordinator} on a real Redis Cluster
 * (3 masters, no replicas; {@link PartitionStores}), where each write is its script's fenced twin in the partition's
 * hash slot; each test takes another partition, so the tests' data spreads over the masters. As
 * {@link RedisPartitionDueIndexTest}, each store reads its counts before the contract's writes.
 */
class RedisClusterModePartitionDueIndexTest extends DueIndexContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisClusterProcess cluster;
  private final PartitionStores stores = new PartitionStores(
      prefix -> RedisClusterModePartitionStoreContractTest.options(cluster, prefix), 64);

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
    stores.close();
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    int n = N.incrementAndGet();
    return stores.create(vertx, "cdue" + n, n % 64);
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return stores.reopen(vertx);
  }
}
