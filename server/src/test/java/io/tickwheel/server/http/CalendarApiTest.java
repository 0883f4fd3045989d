package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The calendar endpoints and fields over real sockets (memory store, real clock): cron timers, pause, resume and fire
 * of a timer, topic pause and the topic listing, the paused gauges.
 */
@ExtendWith(BlockedThreadGuard.class)
class CalendarApiTest {

  static Vertx vertx;
  ServerHarness s;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void start() {
    s = ServerHarness.start(vertx);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  static JsonObject error(HttpResponse<Buffer> r) {
    return r.bodyAsJsonObject().getJsonObject("error");
  }

  @Test
  void cronUtilsLogsThroughAnSlf4jProviderNotTheNoOpFallback() {
    // without a provider on the class path SLF4J falls back to a no-op factory and prints "No SLF4J providers"
    assertThat(org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName())
        .isEqualTo("org.slf4j.jul.JDK14LoggerFactory");
  }

  @Test
  void aCronTimerShowsItsCalendarAndItsNextFiveDueTimesAndNoPeriod() {
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers",
        "{\"id\":\"c\",\"kind\":\"cron\",\"cron\":\"0 9 * * MON-FRI\",\"timeZone\":\"Europe/Amsterdam\"}");
    assertThat(r.statusCode()).isEqualTo(201);
    JsonObject t = r.bodyAsJsonObject();
    assertThat(t.getString("kind")).isEqualTo("cron");
    assertThat(t.getString("cron")).isEqualTo("0 9 * * MON-FRI");
    assertThat(t.getString("timeZone")).isEqualTo("Europe/Amsterdam");
    assertThat(t.getString("dstGap")).isEqualTo("auto");
    assertThat(t.getString("dstOverlap")).isEqualTo("auto");
    assertThat(t.fieldNames()).doesNotContain("periodMs", "paused");
    JsonArray upcoming = t.getJsonArray("upcoming");
    assertThat(upcoming).hasSize(5);
    assertThat(upcoming.getLong(0)).isEqualTo(t.getLong("nextDueAt"));
    for (int i = 1; i < 5; i++) {
      assertThat(upcoming.getLong(i)).isGreaterThan(upcoming.getLong(i - 1));
    }
    assertThat(s.send(GET, "/v1/timers/c").bodyAsJsonObject()).isEqualTo(t);
    JsonObject once = s.send(POST, "/v1/timers", "{\"id\":\"o\",\"delayMs\":60000}").bodyAsJsonObject();
    assertThat(once.fieldNames()).doesNotContain("upcoming");
  }

  @Test
  void aCronThatNeverFiresAndAnUnknownZoneAre400NamingTheField() {
    HttpResponse<Buffer> never = s.send(POST, "/v1/timers", "{\"kind\":\"cron\",\"cron\":\"0 0 30 2 *\"}");
    assertThat(never.statusCode()).isEqualTo(400);
    assertThat(error(never).getString("field")).isEqualTo("cron");
    HttpResponse<Buffer> zone = s.send(POST, "/v1/timers",
        "{\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"timeZone\":\"Mars/Olympus\"}");
    assertThat(zone.statusCode()).isEqualTo(400);
    assertThat(error(zone).getString("field")).isEqualTo("timeZone");
  }

  @Test
  void pauseAndResumeAnswerTheTimerAndAPausedOneHasNoUpcomingTimesAndIsCountedInTheGauge() {
    s.send(POST, "/v1/timers", "{\"id\":\"r\",\"kind\":\"fixed-rate\",\"periodMs\":60000,\"payload\":{\"a\":1}}");
    HttpResponse<Buffer> p = s.send(POST, "/v1/timers/r/pause");
    assertThat(p.statusCode()).isEqualTo(200);
    assertThat(p.bodyAsJsonObject().getBoolean("paused")).isTrue();
    assertThat(p.bodyAsJsonObject().getJsonArray("upcoming")).isEmpty();
    assertThat(p.bodyAsJsonObject().getJsonObject("payload")).isEqualTo(new JsonObject().put("a", 1));
    assertThat(s.send(GET, "/v1/timers/r").bodyAsJsonObject().getBoolean("paused")).isTrue();
    String metrics = s.send(GET, "/metrics").bodyAsString();
    assertThat(metrics).contains("tickwheel_paused_timers 1.0");

    HttpResponse<Buffer> r = s.send(POST, "/v1/timers/r/resume");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().fieldNames()).doesNotContain("paused");
    assertThat(r.bodyAsJsonObject().getJsonArray("upcoming")).hasSize(5);
    assertThat(s.send(GET, "/metrics").bodyAsString()).contains("tickwheel_paused_timers 0.0");
  }

  @Test
  void aPutOfAPausedTimerKeepsItPaused() {
    s.send(POST, "/v1/timers", "{\"id\":\"k\",\"delayMs\":60000}");
    s.send(POST, "/v1/timers/k/pause");
    HttpResponse<Buffer> put = s.send(PUT, "/v1/timers/k", "{\"delayMs\":1000}");
    assertThat(put.statusCode()).isEqualTo(200);
    assertThat(put.bodyAsJsonObject().getBoolean("paused")).isTrue();
    HttpResponse<Buffer> touch = s.send(POST, "/v1/timers/k/touch", "{}");
    assertThat(touch.bodyAsJsonObject().getBoolean("paused")).isTrue();
  }

  @Test
  void fireNowFiresOnceThroughTheFiringLogAndAOnceTimerIsThenGone() {
    s.send(POST, "/v1/timers", "{\"id\":\"f\",\"delayMs\":3600000,\"payload\":\"p\"}");
    HttpResponse<Buffer> r = s.send(POST, "/v1/timers/f/fire");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getLong("firings")).isEqualTo(1);
    assertThat(r.bodyAsJsonObject().getString("payload")).isEqualTo("p");
    List<Firing> log = TestVertx.await(s.store.readFirings(0, 10));
    assertThat(log).hasSize(1);
    assertThat(log.get(0).id()).isEqualTo("f");
    assertThat(log.get(0).nominalAt()).isEqualTo(log.get(0).dueAt());
    assertThat(s.send(GET, "/v1/timers/f").statusCode()).isEqualTo(404);

    s.send(POST, "/v1/timers", "{\"id\":\"g\",\"kind\":\"fixed-delay\",\"periodMs\":3600000}");
    long due = s.send(GET, "/v1/timers/g").bodyAsJsonObject().getLong("nextDueAt");
    JsonObject g = s.send(POST, "/v1/timers/g/fire").bodyAsJsonObject();
    assertThat(g.getLong("firings")).isEqualTo(1);
    assertThat(g.getLong("nextDueAt")).isEqualTo(due);
  }

  @Test
  void pauseResumeAndFireOfAnUnknownTimerAre404AndABadIdIs400NamingId() {
    for (String op : new String[] {"pause", "resume", "fire"}) {
      HttpResponse<Buffer> r = s.send(POST, "/v1/timers/nope/" + op);
      assertThat(r.statusCode()).as(op).isEqualTo(404);
      assertThat(error(r).getString("code")).isEqualTo("not_found");
      HttpResponse<Buffer> bad = s.send(POST, "/v1/timers/bad%20id/" + op);
      assertThat(bad.statusCode()).as(op).isEqualTo(400);
      assertThat(error(bad).getString("field")).isEqualTo("id");
    }
  }

  @Test
  void topicsAreListedWithPendingCountsAndPausedStateAndPauseIsCountedInTheGauge() {
    s.send(POST, "/v1/timers", "{\"topic\":\"mail\",\"delayMs\":3600000}");
    s.send(POST, "/v1/timers", "{\"topic\":\"mail\",\"delayMs\":3600000}");
    s.send(POST, "/v1/timers", "{\"topic\":\"sms\",\"delayMs\":3600000}");
    HttpResponse<Buffer> p = s.send(POST, "/v1/topics/mail/pause");
    assertThat(p.statusCode()).isEqualTo(200);
    assertThat(p.bodyAsJsonObject()).isEqualTo(new JsonObject().put("topic", "mail").put("pending", 2).put("paused", true));
    HttpResponse<Buffer> empty = s.send(POST, "/v1/topics/quiet/pause");
    assertThat(empty.bodyAsJsonObject().getLong("pending")).isZero();

    JsonObject list = s.send(GET, "/v1/topics").bodyAsJsonObject();
    assertThat(list).isEqualTo(new JsonObject("{\"topics\":["
        + "{\"topic\":\"mail\",\"pending\":2,\"paused\":true},"
        + "{\"topic\":\"quiet\",\"pending\":0,\"paused\":true},"
        + "{\"topic\":\"sms\",\"pending\":1,\"paused\":false}],\"next\":null}"));
    JsonObject page = s.send(GET, "/v1/topics?limit=1&after=mail").bodyAsJsonObject();
    assertThat(page.getJsonArray("topics").getJsonObject(0).getString("topic")).isEqualTo("quiet");
    assertThat(page.getString("next")).isEqualTo("quiet");
    assertThat(s.send(GET, "/metrics").bodyAsString()).contains("tickwheel_paused_topics 2.0");

    HttpResponse<Buffer> r = s.send(POST, "/v1/topics/mail/resume");
    assertThat(r.bodyAsJsonObject().getBoolean("paused")).isFalse();
    s.send(POST, "/v1/topics/quiet/resume");
    assertThat(s.send(GET, "/v1/topics").bodyAsJsonObject().getJsonArray("topics")).hasSize(2);
  }

  @Test
  void aBadTopicOrLimitIs400NamingTheField() {
    HttpResponse<Buffer> bad = s.send(POST, "/v1/topics/no%20way/pause");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(error(bad).getString("field")).isEqualTo("topic");
    assertThat(error(bad).getString("message")).contains("no way");
    HttpResponse<Buffer> limit = s.send(GET, "/v1/topics?limit=0");
    assertThat(limit.statusCode()).isEqualTo(400);
    assertThat(error(limit).getString("field")).isEqualTo("limit");
    HttpResponse<Buffer> after = s.send(GET, "/v1/topics?after=a%2Fb");
    assertThat(after.statusCode()).isEqualTo(400);
    assertThat(error(after).getString("field")).isEqualTo("after");
  }
}
