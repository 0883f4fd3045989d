package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.testkit.RedisClusterProcess;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared store contract against fenced partition stores of a {@link RedisClusterCoordinator} on a real Redis
 * Cluster (3 masters, 1 replica each; {@link PartitionStores}); each test takes another partition, so the tests' data
 * spreads over the masters.
 */
class RedisClusterModePartitionStoreContractTest extends TimerStoreContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisClusterProcess cluster;
  private final PartitionStores stores = new PartitionStores(this::options, 64);

  @BeforeAll
  static void startCluster() {
    cluster = RedisClusterProcess.start(3, 1);
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

  static RedisStoreOptions options(RedisClusterProcess cluster, String prefix) {
    List<String> uris = cluster.uris();
    return new RedisStoreOptions().setCluster(true).setConnectionString(uris.get(0))
        .setClusterEndpoints(uris.subList(1, uris.size())).setKeyPrefix(prefix);
  }

  /** The options of this test's coordinators ({@link RedisClusterModeReplicaAckStoreTest} adds acknowledgement). */
  RedisStoreOptions options(String prefix) {
    return options(cluster, prefix);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    int n = N.incrementAndGet();
    return stores.create(vertx, "ccontract" + n, n % 64);
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return stores.reopen(vertx);
  }
}
