package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Several targets in one run, the service options, and the order the runs go in; needs no service. */
class LoadConfigTest {

  @Test
  void tickwheelRunsOncePerStoreAndEachPeerOnceInTheOrderGiven() {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--target", "tickwheel,quartz-jdbc,redisson-delayed-queue",
        "--server-jar", "x.jar", "--store", "rocksdb,redis", "--redis", "redis://127.0.0.1:6379",
        "--jdbc-url", "jdbc:postgresql://127.0.0.1:5432/test", "--chart", "out.svg"});
    assertThat(cfg.targets()).containsExactly("tickwheel", "quartz-jdbc", "redisson-delayed-queue");
    assertThat(LoadTool.runs(cfg)).containsExactly(new LoadTool.Run("tickwheel", "rocksdb"),
        new LoadTool.Run("tickwheel", "redis"), new LoadTool.Run("quartz-jdbc", ""),
        new LoadTool.Run("redisson-delayed-queue", ""));
    assertThat(cfg.redis()).isEqualTo("redis://127.0.0.1:6379");
    assertThat(cfg.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/test");
    assertThat(cfg.describe()).contains("targets=[tickwheel, quartz-jdbc, redisson-delayed-queue]");
  }

  @Test
  void peersAloneNeedNoServer() {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--target", "db-scheduler"});
    assertThat(LoadTool.runs(cfg)).containsExactly(new LoadTool.Run("db-scheduler", ""));
  }

  @Test
  void anUnknownTargetIsRefusedNamingIt() {
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "tickwheel,quartz", "--server-jar", "x"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'quartz'");
  }

  @Test
  void theChartMustBeAnSvgFile() {
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--chart", "c.png"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("c.png");
  }

  @Test
  void theRedisOfTheTickwheelStoreMustBeLocalAndWithoutPassword() {
    new RedisKeys("redis://127.0.0.1:6379/2");
    assertThatThrownBy(() -> new RedisKeys("redis://192.0.2.1:6379"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("loopback");
    assertThatThrownBy(() -> new RedisKeys("redis://:secret@127.0.0.1:6379"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a password");
    assertThatThrownBy(() -> new RedisKeys("redis://127.0.0.1:6379/x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'");
  }

  @Test
  void throughputTimeCapsDefaultToOffAndAreParsed() {
    LoadConfig off = LoadConfig.parse(new String[] {"--target", "db-scheduler"});
    assertThat(off.warmupMs()).isZero();
    assertThat(off.throughputMs()).isZero();
    LoadConfig on = LoadConfig.parse(new String[] {"--target", "db-scheduler", "--warmup-ms", "8000",
        "--throughput-ms=5000"});
    assertThat(on.warmupMs()).isEqualTo(8000);
    assertThat(on.throughputMs()).isEqualTo(5000);
    assertThat(on.describe()).contains("warmup-ms=8000").contains("throughput-ms=5000");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--throughput-ms", "-1"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--throughput-ms").hasMessageContaining("-1");
  }
}
