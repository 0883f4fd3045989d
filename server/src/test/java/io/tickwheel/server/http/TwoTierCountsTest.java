package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the default configuration (RocksDB, the default ten-minute window), a timer due within the window is in memory
 * and one due in hours is in the store only; {@code GET /v1/wheel}, {@code /metrics} and {@code /v1/topics} count
 * both, before and after a restart, and after a cancel of the far one. A start reads the first 10 s of the window
 * before it listens and the rest while it serves: until the loader has read up to the window's bound, the near timer
 * counts as far too, and the totals are right all along.
 */
@ExtendWith(BlockedThreadGuard.class)
class TwoTierCountsTest {

  @TempDir
  Path dir;
  Vertx vertx;

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  ServerHarness open() {
    return ServerHarness.startOnRocksDb(vertx, ServerConfig.defaults(), dir);
  }

  @Test
  void theDefaultWindowKeepsAFarTimerInTheStoreAndEveryViewCountsBothTiersAcrossARestart() {
    assertThat(ServerConfig.defaults().windowMs()).isEqualTo(600_000);
    ServerHarness s = open();
    try {
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"near\",\"topic\":\"a\",\"delayMs\":300000}").statusCode())
          .isEqualTo(201);
      assertThat(s.send(POST, "/v1/timers", "{\"id\":\"far\",\"topic\":\"b\",\"delayMs\":7200000}").statusCode())
          .isEqualTo(201);
      assertTotals(s, 2);
      awaitCounts(s, 2, 1);
    } finally {
      s.close();
    }

    ServerHarness again = open();
    try {
      assertTotals(again, 2);
      awaitCounts(again, 2, 1);
      assertThat(again.send(GET, "/v1/timers/far").bodyAsJsonObject().getString("topic")).isEqualTo("b");
      assertThat(again.send(DELETE, "/v1/timers/far").statusCode()).isEqualTo(204);
      JsonObject wheel = again.send(GET, "/v1/wheel").bodyAsJsonObject();
      assertThat(wheel.getLong("pending")).isEqualTo(1);
      assertThat(wheel.getJsonObject("far").getLong("count")).isZero();
      assertThat(again.send(GET, "/metrics").bodyAsString()).contains("tickwheel_pending_timers 1.0");
      assertThat(again.send(GET, "/v1/topics").bodyAsJsonObject().getJsonArray("topics"))
          .containsExactly(new JsonObject().put("topic", "a").put("pending", 1).put("paused", false));
    } finally {
      again.close();
    }
  }

  /** The counts once the loader has moved the window's bound (it starts 10 s ahead, then moves to the window). */
  private static void awaitCounts(ServerHarness s, long pending, long far) {
    Awaitility.await("the window loader has read up to the window's bound").atMost(Duration.ofSeconds(15))
        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
        .untilAsserted(() -> assertCounts(s, pending, far));
  }

  private static void assertCounts(ServerHarness s, long pending, long far) {
    assertThat(s.send(GET, "/v1/wheel").bodyAsJsonObject().getJsonObject("far").getLong("count")).isEqualTo(far);
    assertTotals(s, pending);
  }

  /** The totals, which count both tiers whatever the loader has read. */
  private static void assertTotals(ServerHarness s, long pending) {
    assertThat(s.send(GET, "/v1/wheel").bodyAsJsonObject().getLong("pending")).isEqualTo(pending);
    assertThat(s.send(GET, "/metrics").bodyAsString()).contains("tickwheel_pending_timers " + pending + ".0");
    assertThat(s.send(GET, "/v1/topics").bodyAsJsonObject().getJsonArray("topics")).containsExactlyInAnyOrder(
        new JsonObject().put("topic", "a").put("pending", 1).put("paused", false),
        new JsonObject().put("topic", "b").put("pending", 1).put("paused", false));
  }
}
