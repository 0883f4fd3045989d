package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class TimerJsonTest {

  private final Timer timer = new Timer("id.1", "topic-a", Kind.FIXED_RATE, 100, 200, 7, Misfire.SKIP,
      "{\"k\":\"välue ☃\"}", 11, 22, 3, 4);

  @Test
  void apiJsonShowsServerFieldsAndPeriodicFieldsOnlyForPeriodicTimers() {
    JsonObject j = TimerJson.toJson(timer);
    assertThat(j.getString("kind")).isEqualTo("fixed-rate");
    assertThat(j.getLong("periodMs")).isEqualTo(200);
    assertThat(j.getString("misfire")).isEqualTo("skip");
    assertThat(j.getJsonObject("payload").getString("k")).isEqualTo("välue ☃");
    assertThat(j.getLong("nextDueAt")).isEqualTo(22);
    assertThat(j.getLong("firings")).isEqualTo(3);
    assertThat(j.getLong("createdAt")).isEqualTo(11);
    Timer once = new Timer("o", "t", Kind.ONCE, 5, 0, 0, Misfire.FIRE_ONCE, null, 1, 6, 0, 1);
    JsonObject o = TimerJson.toJson(once);
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
}
