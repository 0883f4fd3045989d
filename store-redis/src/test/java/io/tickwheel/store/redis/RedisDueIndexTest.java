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

  @org.junit.jupiter.api.Test
  void dataWithoutTheCountsIsCountedOnceAtOpen() throws Exception {
    io.tickwheel.core.model.Timer a = new io.tickwheel.core.model.Timer("a", "x", io.tickwheel.core.model.Kind.ONCE, 1,
        0, 0, io.tickwheel.core.model.Misfire.FIRE_ONCE, null, 1, 10, 0, 1);
    io.tickwheel.core.model.Timer b = new io.tickwheel.core.model.Timer("b", "x", io.tickwheel.core.model.Kind.ONCE, 1,
        0, 0, io.tickwheel.core.model.Misfire.FIRE_ONCE, "{}", 1, 20, 0, 1);
    io.tickwheel.core.model.Timer c = new io.tickwheel.core.model.Timer("c", "y", io.tickwheel.core.model.Kind.ONCE, 1,
        0, 0, io.tickwheel.core.model.Misfire.FIRE_ONCE, null, 1, 30, 0, 1);
    await(store.putAll(java.util.List.of(a.withPaused(true), b, c)));
    await(store.close());
    store = null;
    // as data written before the counts, with a stale name a recount must not keep
    redis.command("DEL", "{" + prefix + "}:topic-counts");
    redis.command("ZADD", "{" + prefix + "}:topics", "0", "gone");
    store = reopenStore(vertx);
    io.tickwheel.core.store.DueIndex index = (io.tickwheel.core.store.DueIndex) store;
    org.assertj.core.api.Assertions.assertThat(await(index.topicCounts(null, 100))).containsExactly(
        new io.tickwheel.core.store.TopicCount("x", 2), new io.tickwheel.core.store.TopicCount("y", 1));
    org.assertj.core.api.Assertions.assertThat(await(index.pausedCount())).isEqualTo(1);
    await(store.remove("a"));
    await(store.close());
    store = reopenStore(vertx);
    index = (io.tickwheel.core.store.DueIndex) store;
    org.assertj.core.api.Assertions.assertThat(await(index.topicCounts(null, 100))).containsExactly(
        new io.tickwheel.core.store.TopicCount("x", 1), new io.tickwheel.core.store.TopicCount("y", 1));
    org.assertj.core.api.Assertions.assertThat(await(index.pausedCount())).isZero();
  }
}
