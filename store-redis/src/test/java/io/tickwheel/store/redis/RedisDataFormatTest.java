package io.tickwheel.store.redis;

import static io.tickwheel.store.redis.RedisTestSupport.await;
import static io.tickwheel.store.redis.RedisTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.store.redis.impl.TimerRecord;
import io.tickwheel.testkit.RedisServerProcess;
import io.vertx.core.Vertx;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Data written by the release before calendars (format 1: timer records without extras, firing log entries without
 * a nominal time) opens and reads as it was, and is stamped format 2; a format this release does not know is refused.
 */
class RedisDataFormatTest {

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

  private static RedisStoreOptions options(String prefix) {
    return new RedisStoreOptions().setConnectionString(redis.uri()).setKeyPrefix(prefix);
  }

  @Test
  void dataOfFormatOneOpensReadsAsBeforeAndIsStampedFormatTwo() {
    // exactly what the release of issue 14 wrote for one periodic timer and one firing
    redis.command("HSET", "{old}:meta", "format", "1");
    redis.command("HSET", "{old}:timers", "p.1", "4 3 8000000000000016 topic-a 1 2 100 200 7 11\nP{\"k\":\"v\"}");
    redis.command("ZADD", "{old}:due", "0", TimerRecord.member(22, "p.1"));
    redis.command("SET", "{old}:seq", "1");
    redis.command("XADD", "{old}:log", "1-0", "f", "1 10 12 gone", "t", "topic-a", "p", "P[1]");

    RedisTimerStore store = await(RedisTimerStore.open(vertx, options("old")));
    try {
      Timer expected = new Timer("p.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP, "{\"k\":\"v\"}", 11,
          22, 3, 4);
      assertThat(await(store.get("p.1"))).isEqualTo(expected);
      assertThat(await(store.get("p.1")).extras()).isNull();
      List<Firing> log = await(store.readFirings(0, 10));
      assertThat(log).containsExactly(new Firing(1, "gone", "topic-a", 1, 10, 12, "[1]"));
      assertThat(log.get(0).nominalAt()).as("an old entry's nominal time is its due time").isEqualTo(10);
      assertThat(await(store.pausedTopics())).isEmpty();
      assertThat(redis.command("HGET", "{old}:meta", "format")).isEqualTo(RedisTimerStore.DATA_FORMAT);
    } finally {
      await(store.close());
    }
  }

  @Test
  void aNewPrefixIsStampedWithTheCurrentFormat() {
    await(await(RedisTimerStore.open(vertx, options("fresh"))).close());
    assertThat(redis.command("HGET", "{fresh}:meta", "format")).isEqualTo("2");
  }

  @Test
  void anUnknownFormatIsRefusedNamingIt() {
    redis.command("HSET", "{future}:meta", "format", "9");
    Throwable e = failure(RedisTimerStore.open(vertx, options("future")));
    assertThat(e).isInstanceOf(StoreFaultException.class).hasMessageContaining("format 9")
        .hasMessageContaining("{future}");
    assertThat(redis.command("HGET", "{future}:meta", "format")).as("left as it was").isEqualTo("9");
  }
}
