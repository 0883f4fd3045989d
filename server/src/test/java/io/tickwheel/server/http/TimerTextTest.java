package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimerTextTest {

  @Test
  void writesExactlyWhatTimerJsonBuildsForEveryShapeOfTimer() {
    List<Timer> timers = List.of(
        new Timer("a", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null, 1, 101, 0, 1),
        new Timer("b.c:d-e_f", "t.o-p_c", Kind.FIXED_RATE, 5, 5, 3, Misfire.SKIP, "{\"x\":[1,\"\\\"q\\\"\",null]}", 7, 12, 2, 4),
        new Timer("x", "y", Kind.FIXED_DELAY, 10, 10, 0, Misfire.FIRE_ALL, "\"caf\u00e9 \\u2028\"", 0, Long.MAX_VALUE, 9, 1),
        new Timer("n", "y", Kind.ONCE, 0, 0, 1, Misfire.FIRE_ONCE, "null", 0, 0, 0, 1),
        new Timer("m", "y", Kind.ONCE, 0, 0, 0, Misfire.FIRE_ONCE, "12.5e3", -1, -2, 0, 1));
    for (Timer t : timers) {
      String text = TimerText.append(new StringBuilder(), t).toString();
      JsonObject expected = TimerJson.toJson(t);
      assertThat(new JsonObject(text)).isEqualTo(expected);
      assertThat(new JsonObject(text).fieldNames()).containsExactlyElementsOf(expected.fieldNames());
      assertThat(TimerText.buffer(t).toString()).isEqualTo(text);
    }
  }
}
