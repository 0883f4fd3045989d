package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
  void tickwheelRunsOncePerStoreAndModeWithHttpAsTheDefaultMode() {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--target", "tickwheel,redisson-delayed-queue",
        "--server-jar", "x.jar", "--store", "rocksdb,redis", "--tickwheel-mode", "http,client"});
    assertThat(LoadTool.runs(cfg)).containsExactly(new LoadTool.Run("tickwheel", "rocksdb", "http"),
        new LoadTool.Run("tickwheel", "rocksdb", "client"), new LoadTool.Run("tickwheel", "redis", "http"),
        new LoadTool.Run("tickwheel", "redis", "client"), new LoadTool.Run("redisson-delayed-queue", "", "http"));
    assertThat(cfg.describe()).contains("tickwheel-mode=[http, client]");
    assertThat(LoadConfig.parse(new String[] {"--server-jar", "x.jar"}).tickwheelModes()).containsExactly("http");
  }

  @Test
  void anUnknownTickwheelModeIsRefusedNamingIt() {
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--server-jar", "x", "--tickwheel-mode", "client,grpc"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--tickwheel-mode")
        .hasMessageContaining("'grpc'");
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

  @Test
  void theStreamSlotDefaultsTo100MsAndIsBounded() {
    assertThat(LoadConfig.parse(new String[] {"--target", "db-scheduler"}).streamSlotMs()).isEqualTo(100);
    LoadConfig smooth = LoadConfig.parse(new String[] {"--target", "db-scheduler", "--stream-slot-ms", "10"});
    assertThat(smooth.streamSlotMs()).isEqualTo(10);
    assertThat(smooth.describe()).contains("a batch every 10 ms (--stream-slot-ms)");
    for (String bad : new String[] {"0", "1001"}) {
      assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--stream-slot-ms", bad}))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--stream-slot-ms")
          .hasMessageContaining("got " + bad);
    }
  }

  @Test
  void theScaleFillHorizonDefaultsTo48HoursAndMustReachPastTheFirstDueTime() {
    assertThat(LoadConfig.parse(new String[] {"--target", "db-scheduler"}).fillHorizonMs()).isEqualTo(48 * 3_600_000L);
    LoadConfig near = LoadConfig.parse(new String[] {"--target", "db-scheduler", "--fill-horizon-ms", "900_000"});
    assertThat(near.fillHorizonMs()).isEqualTo(900_000L);
    assertThat(near.describe()).contains("fill-horizon-ms=900000");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--fill-horizon-ms", "600000"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--fill-horizon-ms")
        .hasMessageContaining("600000");
  }

  @Test
  void theDefaultsAreThoseOfToday() {
    LoadConfig d = LoadConfig.parse(new String[] {"--target", "db-scheduler"});
    assertThat(d.stores()).containsExactly("rocksdb");
    assertThat(d.scenarios()).containsExactly("throughput", "lateness", "burst", "heartbeat");
    assertThat(List.of(d.timers(), d.warmup(), d.concurrency(), d.rate(), d.batchSize(), d.batchConcurrency(),
        d.pending(), d.firingRate(), d.burst(), d.keys(), d.durationS(), d.heartbeatDelayMs()))
        .containsExactly(50000, 10000, 64, 0, 10000, 2, 100000, 2000, 20000, 10000, 10, 3000);
    assertThat(List.of(d.windowMs(), d.latenessWarmupMs())).containsExactly(10000L, 3000L);
    assertThat(d.clientLoops()).isEqualTo(LoadConfig.defaultClientLoops());
    assertThat(d.url()).isNull();
    assertThat(d.csv()).isNull();
  }

  @Test
  void integersTakeUnderscoresAndTheLastOfARepeatedOptionWins() {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--target", "db-scheduler", "--timers", "1_000_000",
        "--concurrency", "8", "--concurrency=16", "--scenario", "all"});
    assertThat(cfg.timers()).isEqualTo(1_000_000);
    assertThat(cfg.concurrency()).isEqualTo(16);
    assertThat(cfg.scenarios()).isEqualTo(LoadConfig.ALL);
  }

  @Test
  void badValuesAreRefusedNamingTheOptionAndValue() {
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--timers", "many"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--timers").hasMessageContaining("many");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--window-ms", "99"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--window-ms").hasMessageContaining("99");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--scenario", "soak"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'soak'");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--target", "db-scheduler", "--csv"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--csv");
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--scenario", "throughput"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--server-jar");
  }

  @Test
  void helpIsAskedForAndListsEveryOption() {
    assertThat(LoadCli.parse(new String[] {"--help"}).helpRequested()).isTrue();
    assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--help"})).isInstanceOf(IllegalArgumentException.class);
    assertThat(LoadCli.usage()).contains("--target", "--url", "--server-jar", "--store", "--scenario", "--timers",
        "--warmup-ms", "--throughput-ms", "--client-loops", "--rate", "--batch-size", "--batch-concurrency",
        "--pending", "--firing-rate", "--window-ms", "--lateness-warmup-ms", "--burst", "--keys", "--duration-s",
        "--heartbeat-delay-ms", "--fill-horizon-ms", "--csv", "--redis", "--jdbc-url", "--chart", "--token");
  }
}
