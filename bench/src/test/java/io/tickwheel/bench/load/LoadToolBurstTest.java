package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The burst scenario, scaled down, against a real tickwheel (memory store) started in this JVM. */
class LoadToolBurstTest {
  private Vertx vertx;
  private String url;

  @BeforeEach
  void startServer() throws Exception {
    vertx = Vertx.vertx();
    TickwheelServer server = new TickwheelServer(ServerConfig.defaults().withPort(0).withStore("memory"));
    vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    url = "http://127.0.0.1:" + server.actualPort();
  }

  @AfterEach
  void stopServer() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  @Timeout(60)
  void burstOf2000TimersFiresEachExactlyOnceNeverEarlyAndIsReportedWithLateness() throws Exception {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--url", url, "--scenario", "burst", "--burst", "2000"});
    Results results = new Results();

    int status = LoadTool.run(cfg, results);

    Map<String, String> burst = results.rows().stream().filter(r -> r.scenario().equals("burst"))
        .collect(Collectors.toMap(Results.Row::metric, Results.Row::value));
    assertThat(status).isZero();
    assertThat(burst).containsEntry("timers", "2000").containsEntry("batch errors", "0")
        .containsEntry("scheduled before due", "yes").containsEntry("firings expected", "2000")
        .containsEntry("firings received", "2000").containsEntry("missing (must be 0)", "0")
        .containsEntry("duplicates (must be 0)", "0").containsEntry("early (must be 0)", "0");
    // first, unmeasured, bursts of as many other timers for the default 3 s warm-up, each fired exactly once
    assertThat(Integer.parseInt(burst.get("warm-up bursts (not measured)"))).isGreaterThanOrEqualTo(1);
    assertThat(burst).containsEntry("warm-up early / missing / duplicates (must be 0)", "0 / 0 / 0")
        .containsEntry("warm-up batch errors", "0");
    // all due at one instant: delivered within a generous window on a busy 2-core machine
    assertThat(Long.parseLong(burst.get("due to last firing ms"))).isBetween(0L, 20_000L);
    assertThat(Long.parseLong(burst.get("lateness max ms"))).isBetween(0L, 20_000L);
    // a --url target: the tool does not know the server's process, so it claims no CPU figure
    assertThat(burst).containsEntry("server cpu us/firing (from scheduled to the last firing)", "NaN");
  }

  @Test
  void heartbeatSplitsEachAfterStopFiringsLatenessIntoTheServersDecisionAndTheDelivery() throws Exception {
    LoadConfig cfg = LoadConfig.parse(new String[] {"--url", url, "--scenario", "heartbeat", "--keys", "100",
        "--duration-s", "2", "--lateness-warmup-ms", "2000"});
    Results results = new Results();

    int status = LoadTool.run(cfg, results);

    Map<String, String> hb = results.rows().stream().filter(r -> r.scenario().equals("heartbeat"))
        .collect(Collectors.toMap(Results.Row::metric, Results.Row::value));
    assertThat(status).isZero();
    // every key fires once (after touching stops, or during it if a loaded machine let touches lag past the
    // countdown: both kinds are in the split and in the lateness it is checked against)
    assertThat(hb).containsEntry("firings received", "100").containsEntry("missing (must be 0)", "0")
        .containsEntry("duplicates (must be 0)", "0").containsEntry("server cpu us/touch", "NaN")
        .containsEntry("server JIT compiler threads cpu ms after touching stopped", "NaN");
    // the warm-up fired as many other timers a second, for its two seconds, first (received before the measured
    // part, not counted in it)
    assertThat(hb).containsEntry("warm-up firings (not measured)", "200").containsEntry("warm-up firings missing", "0");
    // and its keys, touched with the heartbeat's delay in its last second, fired once each after it
    assertThat(hb).containsEntry("warm-up keys fired after their touches stopped (not measured)", "100")
        .containsEntry("warm-up keys missing", "0");
    long total = Long.parseLong(hb.get("after-stop lateness vs fired due max ms"));
    long[] decided = split(hb.get("server firedAt − dueAt p50/p99/max ms"));
    long[] delivered = split(hb.get("received − firedAt p50/p99/max ms"));
    for (long[] part : new long[][] {decided, delivered}) {
      assertThat(part[0]).isBetween(0L, part[1]);
      assertThat(part[1]).isBetween(part[0], part[2]);
    }
    // the two parts of one firing add up to its lateness, so neither part's max can exceed the total's (±1 ms rounding)
    assertThat(decided[2]).isLessThanOrEqualTo(total + 1);
    assertThat(delivered[2]).isLessThanOrEqualTo(total + 1);
  }

  private static long[] split(String pPpMax) {
    assertThat(pPpMax).matches("\\d+ / \\d+ / \\d+");
    String[] p = pPpMax.split(" / ");
    return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])};
  }

  @Test
  void unknownOptionIsRefusedNamingIt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadConfig.parse(new String[] {"--url", url, "--tmers", "5"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--tmers");
  }
}
