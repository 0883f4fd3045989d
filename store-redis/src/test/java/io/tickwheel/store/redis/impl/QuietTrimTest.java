package io.tickwheel.store.redis.impl;

import static io.tickwheel.core.store.StoreFixtures.await;
import static io.tickwheel.core.store.StoreFixtures.fire;
import static io.tickwheel.core.store.StoreFixtures.timer;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.store.redis.RedisStoreOptions;
import io.tickwheel.store.redis.RedisTimerStore;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A trim that can remove nothing costs Redis no call (what idle partitions cost a cluster), and one that can is
 * sent: the store contract checks what trims remove; this checks which trims reach Redis.
 */
class QuietTrimTest {

  private static final long T = 1_000_000_000L;
  private static final Retention HALF_MINUTE = new Retention(1000, 30_000);
  private static RedisServerProcess redis;
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    redis = RedisServerProcess.start();
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void aFiringLogIsTrimmedAgainOnlyOnceAFiringIsRecordedOrTheOldestAgesOut() throws Exception {
    TimerStore store = open("quiet-firings");
    record(store, "a", T);
    record(store, "b", T + 10);
    assertThat(trim(store, HALF_MINUTE, T + 20)).as("nothing old yet: sent").containsExactly(1L, 0L);
    assertThat(trim(store, HALF_MINUTE, T + 25_000)).as("a is not old yet").containsExactly(0L, 0L);
    assertThat(trim(store, HALF_MINUTE, T + 30_001)).as("a aged out").containsExactly(1L, 1L);
    assertThat(trim(store, HALF_MINUTE, T + 40_000)).as("b, the newest, is kept").containsExactly(0L, 0L);
    record(store, "c", T + 40_000);
    assertThat(trim(store, HALF_MINUTE, T + 41_000)).as("a firing since").containsExactly(1L, 1L);
    assertThat(trim(store, HALF_MINUTE, T + 50_000)).containsExactly(0L, 0L);
    assertThat(trim(store, new Retention(1, 30_000), T + 50_000)).as("another retention").containsExactly(1L, 0L);
    assertThat(trim(store, HALF_MINUTE, T + 50_001)).as("and back").containsExactly(1L, 0L);
    assertThat(trim(store, HALF_MINUTE, T + 50_002)).containsExactly(0L, 0L);
    assertThat(trim(store, HALF_MINUTE, T + 50_001 + QuietTrim.MAX_QUIET_MS)).as("quiet for a limited time")
        .containsExactly(1L, 0L);
    assertThat(trim(store, HALF_MINUTE, T)).as("the clock went back").containsExactly(1L, 0L);
    await(store.close());
  }

  @Test
  void deliveriesAreTrimmedAgainOnlyOnceOneMayHaveFinished() throws Exception {
    TimerStore store = open("quiet-deliveries");
    assertThat(calls(() -> await(store.trimDeliveries(HALF_MINUTE, T)))).as("sent").isEqualTo(1);
    assertThat(calls(() -> await(store.trimDeliveries(HALF_MINUTE, T + 10_000)))).as("none finished").isZero();
    await(store.close());
  }

  private static TimerStore open(String prefix) {
    return await(RedisTimerStore.open(vertx,
        new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix)));
  }

  private static void record(TimerStore store, String id, long firedAt) {
    Timer t = timer(id, firedAt);
    await(store.put(t));
    await(store.recordFirings(List.of(fire(t, firedAt, null))));
  }

  /** {Redis script calls, firings removed} of one trim. */
  private static List<Long> trim(TimerStore store, Retention r, long nowMs) throws Exception {
    long[] removed = new long[1];
    long calls = calls(() -> removed[0] = await(store.trimFirings(r, nowMs)));
    return List.of(calls, removed[0]);
  }

  /** How many script calls Redis ran during {@code c}. */
  private static long calls(Callable<?> c) throws Exception {
    long before = redis.commandCalls("evalsha");
    c.call();
    return redis.commandCalls("evalsha") - before;
  }
}
