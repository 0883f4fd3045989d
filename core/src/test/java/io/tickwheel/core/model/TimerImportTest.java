package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An exported line reads back into the same timer; bad state fields are refused naming the field. */
class TimerImportTest {

  private static final long NOW = 1_800_000_000_000L;
  private final TimerParser parser = new TimerParser(Limits.defaults(10), true);

  private static Timer once(String id, long due) {
    return new Timer(id, "orders", Kind.ONCE, 30_000, 0, 0, Misfire.FIRE_ONCE, "{\"order\":42,\"tags\":[\"a\"]}",
        NOW - 5_000, due, 0, 3);
  }

  private static String line(Timer t) {
    return TimerJson.appendExport(new StringBuilder(), t).toString();
  }

  private Timer read(String line, long generation) {
    return TimerImport.read(parser, new JsonObject(line), NOW, generation);
  }

  @Test
  void everyKindReadsBackAsExportedWithItsDueTimeFiringsAndCreation() {
    ZonedCron c = ZonedCron.of("30 2 * * 1-5", ZoneId.of("America/New_York"), DstGap.SKIP, DstOverlap.AUTO);
    long cronNominal = c.atOrAfter(NOW + 3_600_000);
    List<Timer> timers = List.of(
        once("o1", NOW + 25_000),
        once("overdue", NOW - 60_000).withPayload(null),
        new Timer("fr", "t2", Kind.FIXED_RATE, 60_000, 60_000, 10, Misfire.FIRE_ALL, "[1,2,3]", NOW - 600_000,
            NOW + 1_000, 9, 4),
        new Timer("fd", "t2", Kind.FIXED_DELAY, 500, 500, 0, Misfire.FIRE_ONCE, null, NOW - 9_000, NOW + 200, 17, 1),
        new Timer("cr", "cal", Kind.CRON, 0, 0, 12, Misfire.SKIP, "{\"c\":1}", NOW - 86_400_000, cronNominal + 4_321,
            2, 3, new Timer.Extras(c, NOW + 400L * 86_400_000, 90_000, true, cronNominal,
                new Callback("https://hooks.example.com:8443/t/x?y=1", 2500, 20, 250, 60_000))),
        new Timer("jit", "t3", Kind.FIXED_RATE, 60_000, 60_000, 0, Misfire.SKIP, null, NOW - 1, NOW + 70_000, 1, 1,
            new Timer.Extras(null, Timer.NO_END, 30_000, false, NOW + 60_000, Callback.to("https://example.com/h"))));
    for (Timer t : timers) {
      Timer back = read(line(t), 7);
      assertThat(back).as(line(t)).isEqualTo(t.withGeneration(7));
    }
  }

  @Test
  void aLineWithoutStateIsTakenAsPutTakesItsBody() {
    Timer t = read("{\"id\":\"plain\",\"delayMs\":1000,\"payload\":{\"x\":1}}", 1);
    assertThat(t.nextDueAt()).isEqualTo(NOW + 1000);
    assertThat(t.createdAt()).isEqualTo(NOW);
    assertThat(t.firings()).isZero();
  }

  @Test
  void badValuesAreRefusedNamingTheField() {
    String good = line(once("x", NOW + 1000));
    assertRefused(good.replace("\"id\":\"x\",", ""), "id", "needs its id");
    assertRefused(good.replace("\"id\":\"x\"", "\"id\":\"a b\""), "id", "a b");
    assertRefused(good.replace("\"nextDueAt\":" + (NOW + 1000), "\"nextDueAt\":\"soon\""), "nextDueAt", "soon");
    assertRefused(good.replace("\"nextDueAt\":" + (NOW + 1000), "\"nextDueAt\":" + (NOW + 20L * Limits.TEN_YEARS_MS)),
        "nextDueAt", "horizon");
    assertRefused(good.replace("\"firings\":0", "\"firings\":-1"), "firings", "-1");
    assertRefused(good.replace("\"firings\":0", "\"firings\":1"), "firings", "0 for a once timer");
    assertRefused(good.replace("\"createdAt\":", "\"createdAt\":-") , "createdAt", "-");
    assertRefused(good.replace("\"paused\":false", "\"paused\":\"no\""), "paused", "no");
    assertRefused(good.replace("\"kind\":\"once\"", "\"kind\":\"sometimes\""), "kind", "sometimes");
    assertRefused(good.replace("\"topic\":\"orders\"", "\"topic\":\"bad topic\""), "topic", "bad topic");
    assertRefused(good.replace("\"delayMs\":30000", "\"delayMs\":-5"), "delayMs", "-5");
    assertRefused(good.replace("{\"id\"", "{\"colour\":1,\"id\""), "colour", "unknown field");
    assertRefused(good.replace("}", ",\"nominalAt\":" + (NOW + 999) + "}"), "nominalAt", String.valueOf(NOW + 999));
    Timer fr = new Timer("fr", "t", Kind.FIXED_RATE, 100, 100, 3, Misfire.SKIP, null, NOW, NOW + 100, 3, 1);
    assertRefused(line(fr), "firings", "maxFirings (3)");
  }

  private void assertRefused(String line, String field, String inMessage) {
    assertThatThrownBy(() -> read(line, 1)).as(line).isInstanceOfSatisfying(ValidationException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.getMessage()).contains(inMessage);
    });
  }
}
