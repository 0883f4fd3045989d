package io.tickwheel.store.redis;

import io.tickwheel.core.store.TimerExportContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The export contract against the store on a real 3-master Redis Cluster (a single node's {@code --redis} with seed
 * URLs; paged, not point-in-time).
 */
class RedisClusterTimerExportTest extends TimerExportContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess.Cluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RedisServerProcess.Cluster.start(3);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return RedisTimerStore.open(vertx, new RedisStoreOptions().setCluster(true)
        .setConnectionString(cluster.uris().get(0)).setClusterEndpoints(cluster.uris().subList(1, 3))
        .setKeyPrefix("cexport" + N.incrementAndGet())).toCompletionStage().toCompletableFuture().join();
  }

  @Override
  protected boolean pointInTime() {
    return false;
  }
}
