package io.tickwheel.store.redis;

import io.tickwheel.core.store.TimerExportContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The export contract against a standalone redis-server started for this class (paged, not point-in-time). */
class RedisTimerExportTest extends TimerExportContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;

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

  @Override
  protected TimerStore createStore(Vertx vertx) {
    return RedisTimerStore.open(vertx, new RedisStoreOptions().setConnectionString(redis.uri())
        .setKeyPrefix("export" + N.incrementAndGet())).toCompletionStage().toCompletableFuture().join();
  }

  @Override
  protected boolean pointInTime() {
    return false;
  }
}
