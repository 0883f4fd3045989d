package io.tickwheel.bench.load.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testkit.RedisServerProcess;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's delayed queue on a redis-server this test starts on a free port. Runs only with
 * {@code -Dbench.peers=true} (see bench/PEERS.md).
 */
@EnabledIfSystemProperty(named = "bench.peers", matches = "true")
class RedissonDelayedQueueTargetSmokeTest {

  private static RedisServerProcess redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @Test
  void firesTwentyTimersOnceEachHonoursARescheduleResetRemovesPendingOnesAndCloseLeavesNoKeys()
      throws Exception {
    PeerSmokeScenario.run(new RedissonDelayedQueueTarget(Map.of("redis", redis.uri(), "queue", "smoke:q")));

    Config config = new Config();
    config.useSingleServer().setAddress(redis.uri());
    RedissonClient check = Redisson.create(config);
    try {
      assertThat(check.getKeys().getKeys()).isEmpty();
    } finally {
      check.shutdown();
    }
  }
}
