package io.tickwheel.store.redis;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared store contract against a real 3-master Redis Cluster started for this class. Each test uses its own
 * key prefix, and the prefixes spread over the masters' slots.
 */
class RedisClusterStoreTest extends TimerStoreContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess.Cluster cluster;
  private String prefix;

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

  private RedisStoreOptions options() {
    return new RedisStoreOptions()
        .setCluster(true)
        .setConnectionString(cluster.uris().get(0))
        .setClusterEndpoints(cluster.uris().subList(1, 3))
        .setKeyPrefix(prefix);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    prefix = "cluster" + N.incrementAndGet();
    return await(RedisTimerStore.open(vertx, options()));
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return await(RedisTimerStore.open(vertx, options()));
  }
}
