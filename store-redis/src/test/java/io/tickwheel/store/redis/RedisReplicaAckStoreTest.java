package io.tickwheel.store.redis;

import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.TimerStoreContract;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared store contract with {@code minReplicasAcked = 1} against a real standalone master and its replica:
 * every call goes through the acknowledgement's lane and every write waits for a WAIT, and each answers and fails
 * exactly as without.
 */
class RedisReplicaAckStoreTest extends TimerStoreContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess master;
  private static RedisServerProcess replica;
  private String prefix;

  @BeforeAll
  static void startRedis() {
    master = RedisServerProcess.start();
    replica = RedisServerProcess.startReplicaOf(master);
  }

  @AfterAll
  static void stopRedis() {
    try {
      if (replica != null) {
        replica.close();
      }
    } finally {
      if (master != null) {
        master.close();
      }
    }
  }

  private RedisStoreOptions options() {
    return new RedisStoreOptions().setConnectionString(master.uri()).setKeyPrefix(prefix).setMinReplicasAcked(1);
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    prefix = "acked" + N.incrementAndGet();
    return await(RedisTimerStore.open(vertx, options()));
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return await(RedisTimerStore.open(vertx, options()));
  }
}
