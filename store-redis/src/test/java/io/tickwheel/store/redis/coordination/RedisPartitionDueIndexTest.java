package io.tickwheel.store.redis.coordination;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.DueIndexContract;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The due-index contract against a fenced partition store of a {@link RedisClusterCoordinator} on a real standalone
 * redis-server, its lease held throughout: the due index, the per-topic counts and the paused count as the cluster's
 * scripts keep them. Each store reads its counts once before the contract's writes, as a node does when it takes a
 * partition, so the contract's count reads see what the scripts kept, not a recount of the stored timers.
 */
class RedisPartitionDueIndexTest extends DueIndexContract {

  private static final AtomicInteger N = new AtomicInteger();
  private static RedisServerProcess redis;
  private final List<RedisClusterCoordinator> coordinators = new ArrayList<>();
  private String prefix;
  private long epoch;

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
    for (RedisClusterCoordinator c : coordinators) {
      await(c.close());
    }
    coordinators.clear();
  }

  private RedisClusterCoordinator coordinator() {
    RedisClusterCoordinator c = await(RedisClusterCoordinator.open(vertx,
        new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix)));
    coordinators.add(c);
    await(c.join("n1", "http://n1", 8));
    return c;
  }

  @Override
  protected TimerStore createStore(Vertx vertx) {
    prefix = "pdue" + N.incrementAndGet();
    RedisClusterCoordinator c = coordinator();
    Lease l = await(c.acquire(5, "n1", 3_600_000));
    epoch = l.epoch();
    TimerStore s = c.partitionStore(5, epoch);
    await(((DueIndex) s).pausedCount());
    return s;
  }

  @Override
  protected TimerStore reopenStore(Vertx vertx) {
    return coordinator().partitionStore(5, epoch);
  }
}
