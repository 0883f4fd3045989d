package io.tickwheel.store.redis;

import io.tickwheel.core.store.DueIndexContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The due-index contract against a real standalone redis-server started for this class. */
class RedisDueIndexTest extends DueIndexContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private String prefix;

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

  private RedisStoreOptions options() {
    return new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    prefix = "due" + N.incrementAndGet();
    return await(RedisTimerStore.open(vertx, options()));
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return await(RedisTimerStore.open(vertx, options()));
  }
}
