package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

  @Test
  void defaultsAreThoseOfTheContract() {
    ServerConfig c = ServerConfig.defaults();
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.store()).isEqualTo("rocksdb");
    assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
    assertThat(c.redis()).isEqualTo("redis://127.0.0.1:6379");
    assertThat(c.tickMs()).isEqualTo(10);
    assertThat(c.token()).isNull();
    assertThat(c.maxPending()).isEqualTo(10_000_000);
    assertThat(c.fsync()).isFalse();
  }

  @Test
  void environmentVariablesApplyAndFlagsWinOverThem() {
    Map<String, String> env = Map.of("TICKWHEEL_PORT", "9000", "TICKWHEEL_STORE", "memory", "TICKWHEEL_TICK_MS", "5",
        "TICKWHEEL_TOKEN", "t", "TICKWHEEL_FSYNC", "true", "TICKWHEEL_ALLOWED_ORIGINS", "http://a:1, http://b:2");
    ServerConfig c = ServerConfig.parse(new String[] {"--port", "9100", "--tick-ms=20"}, env);
    assertThat(c.port()).isEqualTo(9100);
    assertThat(c.tickMs()).isEqualTo(20);
    assertThat(c.store()).isEqualTo("memory");
    assertThat(c.token()).isEqualTo("t");
    assertThat(c.fsync()).isTrue();
    assertThat(c.allowedOrigins()).containsExactly("http://a:1", "http://b:2");
  }

  @Test
  void everyFlagIsParsed() {
    ServerConfig c = ServerConfig.parse(new String[] {"--host", "localhost", "--port", "0", "--store", "redis",
        "--data-dir", "/tmp/x", "--redis", "redis://127.0.0.1:7000", "--tick-ms", "1", "--token", "abc", "--fsync",
        "--max-pending", "5", "--misfire-threshold-ms", "50", "--log-retention-count", "10",
        "--log-retention-ms", "1000", "--allowed-origins", "*"}, Map.of());
    assertThat(c).extracting(ServerConfig::host, ServerConfig::port, ServerConfig::store, ServerConfig::redis,
            ServerConfig::tickMs, ServerConfig::token, ServerConfig::fsync, ServerConfig::maxPending,
            ServerConfig::misfireThresholdMs, ServerConfig::logRetentionCount, ServerConfig::logRetentionMs)
        .containsExactly("localhost", 0, "redis", "redis://127.0.0.1:7000", 1L, "abc", true, 5L, 50L, 10L, 1000L);
    assertThat(c.dataDir()).isEqualTo(Path.of("/tmp/x"));
    assertThat(c.allowedOrigins()).isEqualTo(List.of("*"));
  }

  @Test
  void badValuesAreRefusedWithAMessageNamingTheFlagAndValue() {
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--port", "http"}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("--port").hasMessageContaining("http");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--port", "70000"}, Map.of()))
        .hasMessageContaining("between 0 and 65535");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--store", "mongo"}, Map.of()))
        .hasMessageContaining("--store").hasMessageContaining("mongo");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--tick-ms", "0"}, Map.of()))
        .hasMessageContaining("--tick-ms");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--frobnicate"}, Map.of()))
        .hasMessageContaining("unknown flag --frobnicate");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--port"}, Map.of()))
        .hasMessageContaining("needs a value");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"8080"}, Map.of()))
        .hasMessageContaining("unexpected argument");
    assertThatThrownBy(() -> ServerConfig.parse(new String[0], Map.of("TICKWHEEL_PORT", "x")))
        .hasMessageContaining("TICKWHEEL_PORT");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--redis", "localhost:6379"}, Map.of()))
        .hasMessageContaining("--redis");
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--allowed-origins", "evil"}, Map.of()))
        .hasMessageContaining("--allowed-origins");
  }

  @Test
  void aNonLoopbackHostWithoutATokenIsRefused() {
    assertThatThrownBy(() -> ServerConfig.parse(new String[] {"--host", "0.0.0.0"}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("non-loopback").hasMessageContaining("--token");
    assertThat(ServerConfig.parse(new String[] {"--host", "0.0.0.0", "--token", "x"}, Map.of()).host())
        .isEqualTo("0.0.0.0");
    assertThat(ServerConfig.parse(new String[] {"--host", "::1"}, Map.of()).url(80)).isEqualTo("http://[::1]:80");
    assertThat(ServerConfig.parse(new String[] {"--host", "localhost"}, Map.of()).host()).isEqualTo("localhost");
  }

  @Test
  void theTokenAndRedisPasswordNeverAppearInToString() {
    ServerConfig c = ServerConfig.parse(new String[] {"--token", "supersecret", "--redis", "redis://:pw@127.0.0.1:6379"},
        Map.of());
    assertThat(c.toString()).doesNotContain("supersecret").doesNotContain(":pw@").contains("token=set");
  }

  @Test
  void usageListsEveryFlagWithItsVariable() {
    String u = ServerConfig.usage();
    for (String f : List.of("--host", "--port", "--store", "--data-dir", "--redis", "--tick-ms", "--token", "--fsync",
        "--max-pending", "--misfire-threshold-ms", "--log-retention-count", "--log-retention-ms", "--allowed-origins",
        "--help", "TICKWHEEL_PORT", "TICKWHEEL_STORE")) {
      assertThat(u).contains(f);
    }
  }
}
