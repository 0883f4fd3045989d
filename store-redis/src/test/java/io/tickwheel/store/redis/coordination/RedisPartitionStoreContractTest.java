package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared store contract against a fenced partition store of a {@link RedisClusterCoordinator} on a real
 * standalone redis-server, its lease held throughout (every write goes through the fence check and passes;
 * {@link PartitionStores}).
 */
class RedisPartitionStoreContractTest extends TimerStoreContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private final PartitionStores stores = new PartitionStores(
      prefix -> new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix), 8);

  @BeforeAll
  static void startRedis() {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @AfterEach
  void closeCoordinators() {
    stores.close();
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return stores.create(vertx, "pcontract" + N.incrementAndGet(), 5);
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return stores.reopen(vertx);
  }
}
