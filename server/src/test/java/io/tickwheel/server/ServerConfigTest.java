package io.tickwheel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.wheel.TimerWheel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.tickwheel.core.callback.Cidr;
import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.server.dispatch.WebhookOptions;
import io.tickwheel.server.scheduler.SchedulerOptions;
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
    assertThat(c.maxPending()).isEqualTo(1_000_000_000);
    assertThat(c.windowMs()).isEqualTo(600_000);
    assertThat(c.fsync()).isFalse();
  }

  @Test
  void environmentVariablesApplyAndFlagsWinOverThem() {
    Map<String, String> env = Map.of("TICKWHEEL_PORT", "9000", "TICKWHEEL_STORE", "memory", "TICKWHEEL_TICK_MS", "5",
        "TICKWHEEL_TOKEN", "t", "TICKWHEEL_FSYNC", "true", "TICKWHEEL_ALLOWED_ORIGINS", "http://a:1, http://b:2");
    ServerConfig c = ServerCli.config(new String[] {"--port", "9100", "--tick-ms=20"}, env);
    assertThat(c.port()).isEqualTo(9100);
    assertThat(c.tickMs()).isEqualTo(20);
    assertThat(c.store()).isEqualTo("memory");
    assertThat(c.token()).isEqualTo("t");
    assertThat(c.fsync()).isTrue();
    assertThat(c.allowedOrigins()).containsExactly("http://a:1", "http://b:2");
  }

  @Test
  void everyFlagIsParsed() {
    ServerConfig c = ServerCli.config(new String[] {"--host", "localhost", "--port", "0", "--store", "redis",
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
  void webhookFlagsAndTheirVariablesAreParsed() {
    ServerConfig c = ServerCli.config(new String[] {"--webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "--webhook-allow-private", "--webhook-allow-cidr", "10.1.0.0/16,fd00::/8", "--webhook-allow-cidr",
        "192.168.7.7"}, Map.of());
    assertThat(c.webhooks().secret()).isEqualTo(WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
    assertThat(c.webhooks().allowPrivate()).isTrue();
    assertThat(c.webhooks().allowCidrs()).containsExactly(Cidr.parse("10.1.0.0/16"), Cidr.parse("fd00::/8"),
        Cidr.parse("192.168.7.7/32"));
    ServerConfig e = ServerCli.config(new String[0], Map.of("TICKWHEEL_WEBHOOK_SECRET",
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "TICKWHEEL_WEBHOOK_ALLOW_PRIVATE", "yes",
        "TICKWHEEL_WEBHOOK_ALLOW_CIDR", "10.0.0.0/8, 172.16.0.0/12"));
    assertThat(e.webhooks().secret()).isNotNull();
    assertThat(e.webhooks().allowPrivate()).isTrue();
    assertThat(e.webhooks().allowCidrs()).containsExactly(Cidr.parse("10.0.0.0/8"), Cidr.parse("172.16.0.0/12"));
    ServerConfig d = ServerCli.config(new String[0], Map.of());
    assertThat(d.webhooks()).isEqualTo(WebhookOptions.DEFAULTS);
    assertThat(d.webhooks().policy().refusedHost("127.0.0.1")).isNotNull();
  }

  @Test
  void badWebhookValuesAreRefusedNamingTheFlagOrVariableButNeverEchoingTheSecret() {
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--webhook-secret", "whsec_c2hvcnQ="}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("flag --webhook-secret")
        .hasMessageContaining("decodes to 5 bytes").hasMessageNotContaining("c2hvcnQ=");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--webhook-secret", "hunter2hunter2hunter2hunter2"},
        Map.of())).hasMessageContaining("must start with whsec_").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_WEBHOOK_SECRET", "nope")))
        .hasMessageContaining("environment variable TICKWHEEL_WEBHOOK_SECRET");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--webhook-allow-cidr", "10.0.0.1/8"}, Map.of()))
        .hasMessageContaining("flag --webhook-allow-cidr").hasMessageContaining("did you mean 10.0.0.0/8?");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_WEBHOOK_ALLOW_CIDR", "intranet")))
        .hasMessageContaining("TICKWHEEL_WEBHOOK_ALLOW_CIDR").hasMessageContaining("'intranet'");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--webhook-allow-private=maybe"}, Map.of()))
        .hasMessageContaining("--webhook-allow-private").hasMessageContaining("maybe");
  }

  @Test
  void theWebhookSecretNeverAppearsInToString() {
    ServerConfig c = ServerConfig.defaults().withWebhooks(
        WebhookOptions.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", false, List.of()));
    assertThat(c.toString()).doesNotContain("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").contains("secret=set");
  }

  @Test
  void badValuesAreRefusedWithAMessageNamingTheFlagAndValue() {
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--port", "http"}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("--port").hasMessageContaining("http");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--port", "70000"}, Map.of()))
        .hasMessageContaining("between 0 and 65535");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--store", "mongo"}, Map.of()))
        .hasMessageContaining("--store").hasMessageContaining("mongo");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--tick-ms", "0"}, Map.of()))
        .hasMessageContaining("--tick-ms");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--frobnicate"}, Map.of()))
        .hasMessageContaining("unknown flag --frobnicate");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--port"}, Map.of()))
        .hasMessageContaining("needs a value");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"8080"}, Map.of()))
        .hasMessageContaining("unexpected argument");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_PORT", "x")))
        .hasMessageContaining("TICKWHEEL_PORT");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--redis", "localhost:6379"}, Map.of()))
        .hasMessageContaining("--redis");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--allowed-origins", "evil"}, Map.of()))
        .hasMessageContaining("--allowed-origins");
  }

  @Test
  void connectionLimitsComeFromFlagsAndVariablesAndBadOnesNameTheFlag() {
    ServerConfig d = ServerConfig.defaults();
    assertThat(d).extracting(ServerConfig::maxConnections, ServerConfig::idleTimeoutMs, ServerConfig::headerTimeoutMs)
        .containsExactly(10_000, 90_000L, 10_000L);
    ServerConfig c = ServerCli.config(new String[] {"--max-connections", "50", "--header-timeout-ms=2000"},
        Map.of("TICKWHEEL_MAX_CONNECTIONS", "7", "TICKWHEEL_IDLE_TIMEOUT_MS", "30_000"));
    assertThat(c).extracting(ServerConfig::maxConnections, ServerConfig::idleTimeoutMs, ServerConfig::headerTimeoutMs)
        .containsExactly(50, 30_000L, 2_000L);
    assertThat(ServerCli.config(new String[0], Map.of("TICKWHEEL_MAX_CONNECTIONS", "7")).maxConnections())
        .isEqualTo(7);
    assertThat(c.withPort(0).withToken("t")).extracting(ServerConfig::maxConnections, ServerConfig::idleTimeoutMs)
        .containsExactly(50, 30_000L);
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--max-connections", "0"}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("flag --max-connections")
        .hasMessageContaining("between 1 and 1000000, was 0");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_MAX_CONNECTIONS", "lots")))
        .hasMessageContaining("TICKWHEEL_MAX_CONNECTIONS").hasMessageContaining("lots");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--idle-timeout-ms", "10"}, Map.of()))
        .hasMessageContaining("flag --idle-timeout-ms").hasMessageContaining("was 10");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--header-timeout-ms", "-1"}, Map.of()))
        .hasMessageContaining("flag --header-timeout-ms");
  }

  @Test
  void aNonLoopbackHostWithoutATokenIsRefused() {
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--host", "0.0.0.0"}, Map.of()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("non-loopback").hasMessageContaining("--token");
    assertThat(ServerCli.config(new String[] {"--host", "0.0.0.0", "--token", "x"}, Map.of()).host())
        .isEqualTo("0.0.0.0");
    assertThat(ServerCli.config(new String[] {"--host", "::1"}, Map.of()).url(80)).isEqualTo("http://[::1]:80");
    assertThat(ServerCli.config(new String[] {"--host", "localhost"}, Map.of()).host()).isEqualTo("localhost");
  }

  @Test
  void theTokenAndRedisPasswordNeverAppearInToString() {
    ServerConfig c = ServerCli.config(new String[] {"--token", "supersecret", "--redis", "redis://:pw@127.0.0.1:6379"},
        Map.of());
    assertThat(c.toString()).doesNotContain("supersecret").doesNotContain(":pw@").contains("token=set");
  }

  @Test
  void aBadRedisUrlIsShownWithoutItsPassword() {
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--redis", "http://:hunter2@127.0.0.1:6379"}, Map.of()))
        .hasMessageContaining("--redis").hasMessageContaining("127.0.0.1:6379").hasMessageNotContaining("hunter2");
  }

  @Test
  void usageListsEveryFlagWithItsVariable() {
    String u = ServerCli.usage();
    for (String f : List.of("--host", "--port", "--store", "--data-dir", "--redis", "--tick-ms", "--token", "--fsync",
        "--max-pending", "--misfire-threshold-ms", "--log-retention-count", "--log-retention-ms", "--allowed-origins",
        "--help", "TICKWHEEL_PORT", "TICKWHEEL_STORE")) {
      assertThat(u).contains(f);
    }
  }

  @Test
  void theCommandLineDefaultsAreTheRecordsDefaultsWhichAreCoresConstants() {
    assertThat(ServerCli.config(new String[0], Map.of())).isEqualTo(ServerConfig.defaults());
    ServerConfig d = ServerConfig.defaults();
    assertThat(d.tickMs()).isEqualTo(TimerWheel.DEFAULT_TICK_MS);
    assertThat(d.maxPending()).isEqualTo(Limits.DEFAULT_MAX_PENDING);
    assertThat(d.misfireThresholdMs()).isEqualTo(Schedule.DEFAULT_MISFIRE_THRESHOLD_MS);
    assertThat(new Retention(d.logRetentionCount(), d.logRetentionMs())).isEqualTo(Retention.defaults());
    assertThat(d.misfireThresholdMs()).isEqualTo(1000);
    assertThat(d.logRetentionCount()).isEqualTo(1_000_000);
    assertThat(d.logRetentionMs()).isEqualTo(86_400_000);
    assertThat(d.allowedOrigins()).isEmpty();
    assertThat(d.windowMs()).isEqualTo(SchedulerOptions.DEFAULT_WINDOW_MS).isEqualTo(600_000);
    assertThat(d.maxPending()).isEqualTo(1_000_000_000);
    assertThat(TickwheelServer.optionsFrom(d).windowMs()).isEqualTo(600_000);
    assertThat(TickwheelServer.optionsFrom(d).maxPending()).isEqualTo(1_000_000_000);
    ServerConfig redis = ServerCli.config(new String[] {"--store", "redis"}, Map.of());
    assertThat(redis.windowMs()).isEqualTo(600_000);
    assertThat(redis.maxPending()).isEqualTo(1_000_000_000);
    ServerConfig memory = ServerCli.config(new String[] {"--store", "memory"}, Map.of());
    assertThat(TickwheelServer.optionsFrom(memory).windowMs()).isZero();
    assertThat(TickwheelServer.optionsFrom(memory).maxPending()).isEqualTo(10_000_000);
  }

  @Test
  void theWindowFlagIsValidatedAtTheEdgeAndZeroOrMemoryKeepsTheInMemoryCap() {
    assertThat(ServerCli.config(new String[] {"--window-ms", "5000"}, Map.of()).windowMs()).isEqualTo(5000);
    assertThat(ServerCli.config(new String[0], Map.of("TICKWHEEL_WINDOW_MS", "2000")).windowMs()).isEqualTo(2000);
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--window-ms", "999"}, Map.of()))
        .hasMessageContaining("--window-ms").hasMessageContaining("999");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--window-ms=-1"}, Map.of()))
        .hasMessageContaining("--window-ms").hasMessageContaining("-1");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--window-ms", "86400001"}, Map.of()))
        .hasMessageContaining("--window-ms").hasMessageContaining("86400001");
    // every pending timer in memory: the default cap is the heap's, unless --max-pending is given
    ServerConfig noWindow = ServerCli.config(new String[] {"--window-ms", "0"}, Map.of());
    assertThat(noWindow.windowMs()).isZero();
    assertThat(noWindow.maxPending()).isEqualTo(Limits.DEFAULT_MAX_PENDING_IN_MEMORY);
    assertThat(ServerCli.config(new String[] {"--store", "memory"}, Map.of()).maxPending())
        .isEqualTo(Limits.DEFAULT_MAX_PENDING_IN_MEMORY);
    assertThat(ServerCli.config(new String[] {"--store", "memory", "--max-pending", "50000000"}, Map.of())
        .maxPending()).isEqualTo(50_000_000);
    assertThat(ServerCli.config(new String[] {"--window-ms", "0"}, Map.of("TICKWHEEL_MAX_PENDING", "7")).maxPending())
        .isEqualTo(7);
    assertThat(ServerCli.usage()).contains("--window-ms").contains("TICKWHEEL_WINDOW_MS");
  }

  @Test
  void helpAndVersionAreRequestsNotConfigurations() {
    assertThat(ServerCli.parse(new String[] {"--help"}, Map.of())).isInstanceOf(ServerCli.Help.class);
    ServerCli.Request v = ServerCli.parse(new String[] {"--version"}, Map.of());
    assertThat(v).isInstanceOf(ServerCli.Version.class);
    assertThat(((ServerCli.Version) v).text()).startsWith("tickwheel ");
    assertThat(ServerCli.parse(new String[] {"--port", "1"}, Map.of())).isInstanceOf(ServerCli.Run.class);
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--help"}, Map.of())).isInstanceOf(ConfigException.class);
  }

  @Test
  void aBadFlagValueIsNamedAsTheFlagEvenWhenItsVariableIsSet() {
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--tick-ms", "abc"}, Map.of("TICKWHEEL_TICK_MS", "5")))
        .hasMessage("flag --tick-ms must be an integer, was 'abc'");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--tick-ms=5000"}, Map.of("TICKWHEEL_TICK_MS", "5")))
        .hasMessage("flag --tick-ms must be between 1 and 1000, was 5000");
  }

  @Test
  void aBadVariableIsNamedAsTheVariableWithItsValue() {
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_MAX_PENDING", "lots")))
        .hasMessage("environment variable TICKWHEEL_MAX_PENDING must be an integer, was 'lots'");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_LOG_RETENTION_COUNT", "0")))
        .hasMessage("environment variable TICKWHEEL_LOG_RETENTION_COUNT must be between 1 and "
            + Long.MAX_VALUE + ", was 0");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_FSYNC", "maybe")))
        .hasMessage("environment variable TICKWHEEL_FSYNC must be true or false, was 'maybe'");
    assertThatThrownBy(() -> ServerCli.config(new String[0], Map.of("TICKWHEEL_STORE", "Mongo")))
        .hasMessageContaining("environment variable TICKWHEEL_STORE").hasMessageContaining("mongo");
  }

  @Test
  void aFlagWinsOverABadVariable() {
    assertThat(ServerCli.config(new String[] {"--port", "9000"}, Map.of("TICKWHEEL_PORT", "x")).port())
        .isEqualTo(9000);
  }

  @Test
  void valuesKeepTheirFormsOfToday() {
    ServerConfig c = ServerCli.config(new String[] {"--max-pending", "1_000", "--fsync=off", "--port", " 81 ",
        "--port", "82", "--store", " MEMORY ", "--token="}, Map.of("TICKWHEEL_FSYNC", "yes"));
    assertThat(c.maxPending()).isEqualTo(1000);
    assertThat(c.fsync()).isFalse();
    assertThat(c.port()).isEqualTo(82);
    assertThat(c.store()).isEqualTo("memory");
    assertThat(c.token()).isNull();
    assertThat(ServerCli.config(new String[0], Map.of("TICKWHEEL_FSYNC", "on")).fsync()).isTrue();
    assertThatThrownBy(() -> ServerCli.config(new String[] {"--frobnicate=3"}, Map.of()))
        .hasMessageContaining("unknown flag --frobnicate");
    assertThatThrownBy(() -> ServerCli.config(new String[] {"@args.txt"}, Map.of()))
        .hasMessageContaining("unexpected argument '@args.txt'");
  }

  @Test
  void usageStartsWithOneUsageLine() {
    assertThat(ServerCli.usage()).startsWith("Usage: java -jar tickwheel.jar [flags]" + System.lineSeparator())
        .containsOnlyOnce("Usage:");
  }

  @Test
  void usageShowsCoresDefaultsAndEveryVariable() {
    String u = ServerCli.usage();
    assertThat(u).contains("(default 10)").contains("(default 1000000000 with a window").contains("10000000 while")
        .contains("(default 600000, 10 min)")
        .contains("(default 86400000)")
        .contains("TICKWHEEL_TICK_MS").contains("TICKWHEEL_ALLOWED_ORIGINS").doesNotContain("TICKWHEEL_HELP");
  }

  @Test
  void theRecordRefusesEveryBadValueNamingTheComponentAndValue() {
    ServerConfig d = ServerConfig.defaults();
    assertThatThrownBy(() -> d.withPort(-1)).isInstanceOf(ConfigException.class)
        .hasMessage("port must be between 0 and 65535, was -1")
        .extracting(e -> ((ConfigException) e).field()).isEqualTo("port");
    assertThatThrownBy(() -> d.withStore("mongo")).hasMessage("store must be rocksdb, redis or memory, was 'mongo'");
    assertThatThrownBy(() -> d.withToken("has space")).hasMessageStartingWith("token must be");
    assertThatThrownBy(() -> d.withToken("")).hasMessageStartingWith("token must be");
    assertThatThrownBy(() -> d.withMaxPending(0)).hasMessage("maxPending must be between 1 and 2147483647, was 0");
    assertThatThrownBy(() -> d.withAllowedOrigins(List.of("evil")))
        .hasMessage("allowedOrigins must list origins like http://host:port, was 'evil'");
    assertThatThrownBy(() -> new ServerConfig(" ", 1, "memory", Path.of("d"), "redis://x", 10, null, false, 1, 0, 1, 0,
        List.of())).hasMessage("host must not be empty");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of(""), "redis://x", 10, null, false, 1, 0, 1, 0,
        List.of())).hasMessage("dataDir must not be empty");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of("d"), "x:1", 10, null, false, 1, 0, 1, 0,
        List.of())).hasMessage("redis must be a redis:// or rediss:// URL, was 'x:1'");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of("d"), "redis://x", 1001, null, false, 1, 0, 1,
        0, List.of())).hasMessage("tickMs must be between 1 and 1000, was 1001");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of("d"), "redis://x", 10, null, false, 1, -1, 1,
        0, List.of())).hasMessageStartingWith("misfireThresholdMs must be between 0 and");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of("d"), "redis://x", 10, null, false, 1, 0, 0,
        0, List.of())).hasMessageStartingWith("logRetentionCount must be between 1 and");
    assertThatThrownBy(() -> new ServerConfig("h", 1, "memory", Path.of("d"), "redis://x", 10, null, false, 1, 0, 1,
        -1, List.of())).hasMessageStartingWith("logRetentionMs must be between 0 and");
  }

  @Test
  void theAllowedOriginsAreCopied() {
    List<String> origins = new java.util.ArrayList<>(List.of("http://a:1"));
    ServerConfig c = ServerConfig.defaults().withAllowedOrigins(origins);
    origins.add("http://b:2");
    assertThat(c.allowedOrigins()).containsExactly("http://a:1");
  }
}
