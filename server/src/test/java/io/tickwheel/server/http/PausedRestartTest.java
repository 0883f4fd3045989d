package io.tickwheel.server.http;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Pause state is durable: a paused timer, a paused topic and a cron timer's calendar survive a restart (RocksDB). */
@ExtendWith(BlockedThreadGuard.class)
class PausedRestartTest {

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
    return ServerHarness.startOnRocksDb(vertx, ServerConfig.defaults().withStore("rocksdb"), dir);
  }

  @Test
  void aPausedTimerAndAPausedTopicStayPausedAndACronTimerKeepsItsCalendarAfterARestart() {
    ServerHarness s = open();
    s.send(POST, "/v1/timers", "{\"id\":\"p\",\"kind\":\"cron\",\"cron\":\"*/5 * * * *\",\"timeZone\":\"Asia/Tokyo\","
        + "\"jitterMs\":1000,\"payload\":{\"n\":1}}");
    s.send(POST, "/v1/timers", "{\"id\":\"c\",\"kind\":\"cron\",\"cron\":\"0 9 * * *\",\"timeZone\":\"America/Santiago\"}");
    s.send(POST, "/v1/timers", "{\"id\":\"held\",\"topic\":\"quiet\",\"delayMs\":3600000}");
    assertThat(s.send(POST, "/v1/timers/p/pause").statusCode()).isEqualTo(200);
    assertThat(s.send(POST, "/v1/topics/quiet/pause").statusCode()).isEqualTo(200);
    JsonObject cronBefore = s.send(GET, "/v1/timers/c").bodyAsJsonObject();
    s.close();

    ServerHarness again = open();
    try {
      JsonObject p = again.send(GET, "/v1/timers/p").bodyAsJsonObject();
      assertThat(p.getBoolean("paused")).isTrue();
      assertThat(p.getString("timeZone")).isEqualTo("Asia/Tokyo");
      assertThat(p.getLong("jitterMs")).isEqualTo(1000);
      assertThat(p.getJsonObject("payload")).isEqualTo(new JsonObject().put("n", 1));
      assertThat(again.send(GET, "/v1/timers/c").bodyAsJsonObject()).isEqualTo(cronBefore);
      assertThat(again.send(GET, "/v1/topics").bodyAsJsonObject().getJsonArray("topics"))
          .contains(new JsonObject().put("topic", "quiet").put("pending", 1).put("paused", true));
      assertThat(again.server.scheduler().pausedTimers()).isEqualTo(1);
      assertThat(again.send(GET, "/metrics").bodyAsString())
          .contains("tickwheel_paused_timers 1.0").contains("tickwheel_paused_topics 1.0");
      assertThat(again.send(POST, "/v1/timers/p/resume").bodyAsJsonObject().fieldNames()).doesNotContain("paused");
    } finally {
      again.close();
    }
  }
}
