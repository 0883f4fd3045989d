package io.tickwheel.server.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The forwarded JSON both ways: a spec the owner parses back to the same spec, a timer rebuilt exactly. */
class TimerWireTest {

  static final long NOW = 1_800_000_000_000L;
  final TimerParser parser = new TimerParser(Limits.defaults(10), true);

  static final List<String> BODIES = List.of(
      "{\"id\":\"a\",\"delayMs\":5000}",
      "{\"topic\":\"t\",\"at\":1800000100000,\"payload\":{\"n\":1.5,\"s\":\"é\\\"\\u0001\",\"l\":[1,null,true]}}",
      "{\"id\":\"r\",\"kind\":\"fixed-rate\",\"periodMs\":1000,\"misfire\":\"fire-all\",\"maxFirings\":7,"
          + "\"endAt\":1800000900000,\"jitterMs\":250}",
      "{\"id\":\"d\",\"kind\":\"fixed-delay\",\"periodMs\":60000,\"payload\":\"x\"}",
      "{\"id\":\"c\",\"kind\":\"cron\",\"cron\":\"0 30 2 * * ?\",\"timeZone\":\"Europe/Berlin\",\"dstGap\":\"skip\","
          + "\"jitterMs\":10000,\"delayMs\":3600000}",
      "{\"id\":\"w\",\"delayMs\":100,\"callback\":{\"url\":\"https://example.com/h?a=%22b\",\"maxAttempts\":3}}",
      "{\"id\":\"v\",\"kind\":\"fixed-rate\",\"periodMs\":1000,\"callback\":{\"url\":\"http://example.com/x\","
          + "\"timeoutMs\":2000,\"minBackoffMs\":100,\"maxBackoffMs\":5000}}");

  @Test
  void aSpecSentToTheOwnerParsesBackToTheSameSpec() {
    for (String body : BODIES) {
      TimerSpec spec = parser.parse(new JsonObject(body), NOW);
      String sent = TimerWire.appendSpec(new StringBuilder(), spec).toString();
      assertThat(parser.parse(new JsonObject(sent), NOW)).as(sent).isEqualTo(spec);
    }
  }

  @Test
  void aForwardedTimerIsRebuiltExactlyGenerationAndNominalTimeIncluded() {
    for (String body : BODIES) {
      Timer t = Schedule.accept(parser.parse(new JsonObject(body), NOW).withId("x-1"), NOW, 3);
      t = Schedule.touch(t, NOW + 7, 90_000L);
      JsonObject wire = io.tickwheel.core.model.TimerJson.toJson(t).put("generation", t.generation())
          .put("nominalAt", t.nominalAt());
      Timer back = TimerWire.timer(wire);
      assertThat(back).as(body).isEqualTo(t);
      assertThat(Schedule.upcoming(back)).isEqualTo(Schedule.upcoming(t));
    }
  }

  @Test
  void anAnswerThatIsNotATimerIsRefusedWithItsReason() {
    assertThatThrownBy(() -> TimerWire.timer(new JsonObject().put("id", "a").put("kind", "sometimes")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sometimes");
  }
}
