package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.store.TimerExportContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisClusterProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The export contract against fenced partition stores of a {@link RedisClusterCoordinator} on a real Redis Cluster (3
 * masters): what a cluster node's export reads ({@code partitionReader}s are the same store, read-only).
 */
class RedisClusterModeTimerExportTest extends TimerExportContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisClusterProcess cluster;
  private final List<RedisClusterCoordinator> coordinators = new ArrayList<>();

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
      join(c.close());
    }
  }

  private static <T> T join(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    int n = N.incrementAndGet();
    String prefix = "cexport" + n;
    int partition = n % 64;
    RedisClusterCoordinator c = join(RedisClusterCoordinator.open(vertx,
        RedisClusterModePartitionStoreContractTest.options(cluster, prefix)));
    coordinators.add(c);
    join(c.join("n1", "http://n1", 64));
    Lease l = join(c.acquire(partition, "n1", 3_600_000));
    return c.partitionStore(partition, l.epoch());
  }

  @Override
  protected boolean pointInTime() {
    return false;
  }
}
