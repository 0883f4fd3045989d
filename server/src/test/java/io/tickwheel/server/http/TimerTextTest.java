package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimerTextTest {

  @Test
  void writesAStringAsTheJsonLibraryDoesWhetherItNeedsEscapingOrNot() {
    for (String s : List.of("", "*/15 * * * *", "0 0 L * ?", "5#3 @daily ~`!", "a\"b", "back\\slash", "tab\there",
        "caf\u00e9", "\u2028", "del\u007f", "\u0000")) {
      StringBuilder sb = new StringBuilder("x");
      TimerText.appendString(sb, s);
      assertThat(sb.toString()).as(s).isEqualTo("x" + io.vertx.core.json.Json.encode(s));
    }
  }

  @Test
  void cronUtilsLogsThroughAnSlf4jProviderNotTheNoOpFallback() {
    // without a provider on the class path SLF4J falls back to a no-op factory and prints "No SLF4J providers"
    assertThat(org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName())
        .isEqualTo("org.slf4j.jul.JDK14LoggerFactory");
  }

  @Test
  void writesExactlyWhatTimerJsonBuildsForEveryShapeOfTimer() {
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
      String text = TimerText.append(new StringBuilder(), t).toString();
      JsonObject written = new JsonObject(text);
      JsonObject expected = TimerJson.toJson(t);
      if (t.kind().periodic()) {
        JsonArray upcoming = (JsonArray) written.remove("upcoming");
        assertThat(upcoming.stream().map(n -> ((Number) n).longValue()).toList()).containsExactlyElementsOf(
            java.util.Arrays.stream(Schedule.upcoming(t)).boxed().toList());
      } else {
        assertThat(written.fieldNames()).doesNotContain("upcoming");
      }
      assertThat(written).isEqualTo(expected);
      assertThat(written.fieldNames()).containsExactlyElementsOf(expected.fieldNames());
      assertThat(TimerText.buffer(t).toString()).isEqualTo(text);
    }
  }

  @Test
  void aCronTimerShowsItsCalendarAndNoPeriodAndAPausedOneNoUpcomingTimes() {
    ZonedCron hourly = ZonedCron.of("0 * * * *", ZoneId.of("UTC"), DstGap.AUTO, DstOverlap.AUTO);
    Timer cron = new Timer("c", "y", Kind.CRON, 0, 0, 0, Misfire.FIRE_ONCE, null, 0, 3_600_000, 0, 1,
        new Timer.Extras(hourly, Timer.NO_END, 0, false, 0));
    JsonObject j = new JsonObject(TimerText.buffer(cron).toString());
    assertThat(j.fieldNames()).doesNotContain("periodMs", "paused", "endAt", "jitterMs");
    assertThat(j.getString("cron")).isEqualTo("0 * * * *");
    assertThat(j.getString("timeZone")).isEqualTo("UTC");
    assertThat(j.getJsonArray("upcoming").stream().map(n -> ((Number) n).longValue()).toList())
        .containsExactly(3_600_000L, 7_200_000L, 10_800_000L, 14_400_000L, 18_000_000L);
    JsonObject paused = new JsonObject(TimerText.buffer(cron.withPaused(true)).toString());
    assertThat(paused.getBoolean("paused")).isTrue();
    assertThat(paused.getJsonArray("upcoming")).isEmpty();
  }

  private static List<Timer> concat(List<Timer> a, List<Timer> b) {
    List<Timer> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
