package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimerJsonTest {

  private final Timer timer = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"välue ☃\"}", 11, 22, 3, 4);

  @Test
  void apiJsonShowsServerFieldsAndPeriodicFieldsOnlyForPeriodicTimers() {
    JsonObject j = json(timer);
    assertThat(j.getString("kind")).isEqualTo("fixed-rate");
    assertThat(j.getLong("periodMs")).isEqualTo(200);
    assertThat(j.getString("misfire")).isEqualTo("skip");
    assertThat(j.getJsonObject("payload").getString("k")).isEqualTo("välue ☃");
    assertThat(j.getLong("nextDueAt")).isEqualTo(22);
    assertThat(j.getLong("firings")).isEqualTo(3);
    assertThat(j.getLong("createdAt")).isEqualTo(11);
    Timer once = new Timer("o", "t", Kind.ONCE, 5, 0, 0, Misfire.FIRE_ONCE, null, 1, 6, 0, 1);
    JsonObject o = json(once);
    assertThat(o.fieldNames()).doesNotContain("periodMs", "misfire", "maxFirings", "payload");
  }

  @Test
  void firingJsonIsTheContractShape() {
    Firing f = new Firing(9, "a:b", "t", 2, 100, 103, "{\"x\":1}");
    JsonObject j = new JsonObject(TimerJson.firingJson(f));
    assertThat(j).isEqualTo(new JsonObject("{\"type\":\"fired\",\"seq\":9,\"id\":\"a:b\",\"topic\":\"t\","
        + "\"firing\":2,\"dueAt\":100,\"nominalAt\":100,\"firedAt\":103,\"payload\":{\"x\":1}}"));
    Firing jittered = new Firing(9, "a", "t", 1, 130, 131, null, 100);
    assertThat(new JsonObject(TimerJson.firingJson(jittered)).getLong("nominalAt")).isEqualTo(100);
    assertThat(new JsonObject(TimerJson.firingJson(new Firing(1, "a", "t", 1, 1, 1, null))).getValue("payload"))
        .isNull();
  }

  @Test
  void writesAStringAsTheJsonLibraryDoesWhetherItNeedsEscapingOrNot() {
    for (String s : List.of("", "*/15 * * * *", "0 0 L * ?", "5#3 @daily ~`!", "a\"b", "back\\slash", "tab\there",
        "caf\u00e9", "\u2028", "del\u007f", "\u0000")) {
      StringBuilder sb = new StringBuilder("x");
      TimerJson.appendString(sb, s);
      assertThat(sb.toString()).as(s).isEqualTo("x" + io.vertx.core.json.Json.encode(s));
    }
  }

  @Test
  void writesEveryShapeOfTimerAsAJsonTreeBuiltFieldByFieldWould() {
    List<Timer> timers = List.of(
        new Timer("a", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null, 1, 101, 0, 1),
        new Timer("b.c:d-e_f", "t.o-p_c", Kind.FIXED_RATE, 5, 5, 3, Misfire.SKIP, "{\"x\":[1,\"\\\"q\\\"\",null]}", 7, 12, 2, 4),
        new Timer("x", "y", Kind.FIXED_DELAY, 10, 10, 0, Misfire.FIRE_ALL, "\"caf\u00e9 \\u2028\"", 0, Long.MAX_VALUE, 9, 1),
        new Timer("n", "y", Kind.ONCE, 0, 0, 1, Misfire.FIRE_ONCE, "null", 0, 0, 0, 1),
        new Timer("m", "y", Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, "12.5e3", -1, -2, 0, 1));
    ZonedCron daily = ZonedCron.of("30 2 * * *", ZoneId.of("America/New_York"), DstGap.AUTO, DstOverlap.AUTO);
    List<Timer> calendars = List.of(
        new Timer("c", "y", Kind.CRON, 0, 0, 0, Misfire.SKIP, null, 0, 1_000, 0, 1,
            new Timer.Extras(daily, 9_000_000_000L, 500, false, 900)),
        new Timer("p", "y", Kind.FIXED_RATE, 10, 10, 0, Misfire.FIRE_ONCE, null, 0, 10, 0, 2,
            new Timer.Extras(null, Timer.NO_END, 0, true, 0)),
        new Timer("w", "y", Kind.ONCE, 10, 0, 0, Misfire.FIRE_ONCE, "[1]", 0, 10, 0, 2,
            new Timer.Extras(null, Timer.NO_END, 0, false, 0, Callback.to("https://h.example/a?b=\"c\"&d=\\"))),
        new Timer("v", "y", Kind.CRON, 0, 0, 0, Misfire.SKIP, null, 0, 1_000, 0, 1,
            new Timer.Extras(daily, Timer.NO_END, 0, true, 0,
                new Callback("http://[::1]:81/", 1000, 20, 100, 5000))));
    for (Timer t : concat(timers, calendars)) {
      String text = TimerJson.append(new StringBuilder(), t).toString();
      JsonObject written = new JsonObject(text);
      JsonObject expected = reference(t);
      if (t.kind().periodic()) {
        JsonArray upcoming = (JsonArray) written.remove("upcoming");
        assertThat(upcoming.stream().map(n -> ((Number) n).longValue()).toList()).containsExactlyElementsOf(
            java.util.Arrays.stream(Schedule.upcoming(t)).boxed().toList());
      } else {
        assertThat(written.fieldNames()).doesNotContain("upcoming");
      }
      assertThat(written).isEqualTo(expected);
      assertThat(written.fieldNames()).containsExactlyElementsOf(expected.fieldNames());
      JsonObject state = new JsonObject(TimerJson.appendState(new StringBuilder(), t).toString());
      assertThat(state.fieldNames()).doesNotContain("upcoming");
      assertThat(state.getLong("generation")).isEqualTo(t.generation());
      assertThat(state.getLong("nominalAt")).isEqualTo(t.nominalAt());
      state.remove("generation");
      state.remove("nominalAt");
      assertThat(state).isEqualTo(expected);
    }
  }

  @Test
  void aCronTimerShowsItsCalendarAndNoPeriodAndAPausedOneNoUpcomingTimes() {
    ZonedCron hourly = ZonedCron.of("0 * * * *", ZoneId.of("UTC"), DstGap.AUTO, DstOverlap.AUTO);
    Timer cron = new Timer("c", "y", Kind.CRON, 0, 0, 0, Misfire.FIRE_ONCE, null, 0, 3_600_000, 0, 1,
        new Timer.Extras(hourly, Timer.NO_END, 0, false, 0));
    JsonObject j = json(cron);
    assertThat(j.fieldNames()).doesNotContain("periodMs", "paused", "endAt", "jitterMs");
    assertThat(j.getString("cron")).isEqualTo("0 * * * *");
    assertThat(j.getString("timeZone")).isEqualTo("UTC");
    assertThat(j.getJsonArray("upcoming").stream().map(n -> ((Number) n).longValue()).toList())
        .containsExactly(3_600_000L, 7_200_000L, 10_800_000L, 14_400_000L, 18_000_000L);
    JsonObject paused = json(cron.withPaused(true));
    assertThat(paused.getBoolean("paused")).isTrue();
    assertThat(paused.getJsonArray("upcoming")).isEmpty();
  }

  private static JsonObject json(Timer t) {
    return new JsonObject(TimerJson.append(new StringBuilder(), t).toString());
  }

  /** The API's timer built field by field as a JSON tree (the writer's reference; {@code upcoming} aside). */
  private static JsonObject reference(Timer t) {
    JsonObject o = new JsonObject().put("id", t.id()).put("topic", t.topic()).put("kind", t.kind().wireName())
        .put("delayMs", t.delayMs());
    if (t.kind().hasPeriod()) {
      o.put("periodMs", t.periodMs());
    }
    if (t.kind().periodic()) {
      o.put("misfire", t.misfire().wireName());
    }
    if (t.cron() != null) {
      o.put("cron", t.cron().expression()).put("timeZone", t.cron().zone().getId())
          .put("dstGap", t.cron().gap().wireName()).put("dstOverlap", t.cron().overlap().wireName());
    }
    if (t.maxFirings() > 0) {
      o.put("maxFirings", t.maxFirings());
    }
    if (t.endAt() != Timer.NO_END) {
      o.put("endAt", t.endAt());
    }
    if (t.jitterMs() > 0) {
      o.put("jitterMs", t.jitterMs());
    }
    if (t.paused()) {
      o.put("paused", true);
    }
    Callback c = t.callback();
    if (c != null) {
      JsonObject cb = new JsonObject().put("url", c.url()).put("timeoutMs", c.timeoutMs())
          .put("maxAttempts", c.maxAttempts());
      if (c.hasBackoff()) {
        cb.put("minBackoffMs", c.minBackoffMs()).put("maxBackoffMs", c.maxBackoffMs());
      }
      o.put("callback", cb);
    }
    if (t.payload() != null) {
      o.put("payload", Json.decodeValue(t.payload()));
    }
    return o.put("nextDueAt", t.nextDueAt()).put("firings", t.firings()).put("createdAt", t.createdAt());
  }

  private static List<Timer> concat(List<Timer> a, List<Timer> b) {
    List<Timer> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
