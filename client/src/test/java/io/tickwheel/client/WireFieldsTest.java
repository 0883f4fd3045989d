package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** The client's value classes against the contract's field names, both ways. */
class WireFieldsTest {

  @Test
  void a_cron_request_carries_every_calendar_field_and_its_callback_under_the_contracts_names() {
    TimerRequest r = TimerRequest.builder().id("c1").topic("jobs").cron("0 9 * * 1-5")
        .timeZone(ZoneId.of("Europe/Amsterdam")).dstGap("shift").dstOverlap("once").endAt(1_900_000_000_000L)
        .jitterMs(30_000).misfire("skip").delayMs(0)
        .callback(Callback.to("https://h.example/tw").timeoutMs(2_000).maxAttempts(4).backoffMs(500, 8_000))
        .build();
    assertThat(r.toJson()).isEqualTo(new JsonObject()
        .put("id", "c1").put("topic", "jobs").put("kind", "cron").put("delayMs", 0L).put("misfire", "skip")
        .put("cron", "0 9 * * 1-5").put("timeZone", "Europe/Amsterdam").put("dstGap", "shift")
        .put("dstOverlap", "once").put("endAt", 1_900_000_000_000L).put("jitterMs", 30_000L)
        .put("callback", new JsonObject().put("url", "https://h.example/tw").put("timeoutMs", 2_000L)
            .put("maxAttempts", 4).put("minBackoffMs", 500L).put("maxBackoffMs", 8_000L)));
    assertThat(r.kind()).isEqualTo("cron");
    assertThat(r.timeZone()).isEqualTo("Europe/Amsterdam");
    assertThat(r).isEqualTo(TimerRequest.builder().id("c1").topic("jobs").cron("0 9 * * 1-5")
        .timeZone("Europe/Amsterdam").dstGap("shift").dstOverlap("once").endAt(1_900_000_000_000L).jitterMs(30_000)
        .misfire("skip").delayMs(0)
        .callback(Callback.to("https://h.example/tw").timeoutMs(2_000).maxAttempts(4).backoffMs(500, 8_000)).build());
  }

  @Test
  void fields_never_set_are_absent_and_a_bare_callback_is_its_url_only() {
    assertThat(TimerRequest.builder().id("o").delayMs(5).build().toJson())
        .isEqualTo(new JsonObject().put("id", "o").put("delayMs", 5L));
    assertThat(Callback.to("https://h.example/tw").toJson()).isEqualTo(new JsonObject().put("url", "https://h.example/tw"));
    assertThatThrownBy(() -> Callback.fromJson(new JsonObject().put("timeoutMs", 5)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("url");
  }

  @Test
  void a_timer_answer_exposes_calendar_fields_pause_callback_and_upcoming() {
    TimerInfo t = TimerInfo.fromJson(new JsonObject().put("id", "c1").put("kind", "cron").put("cron", "@daily")
        .put("timeZone", "UTC").put("dstGap", "auto").put("dstOverlap", "auto").put("endAt", 5L).put("jitterMs", 7)
        .put("paused", true).put("nextDueAt", 100L).put("upcoming", new JsonArray().add(100L).add(200L))
        .put("callback", new JsonObject().put("url", "https://h.example/tw").put("timeoutMs", 10_000)
            .put("maxAttempts", 8)));
    assertThat(t.cron()).isEqualTo("@daily");
    assertThat(t.timeZone()).isEqualTo("UTC");
    assertThat(t.dstGap()).isEqualTo("auto");
    assertThat(t.dstOverlap()).isEqualTo("auto");
    assertThat(t.endAt()).isEqualTo(5L);
    assertThat(t.jitterMs()).isEqualTo(7L);
    assertThat(t.paused()).isTrue();
    assertThat(t.upcoming()).containsExactly(100L, 200L);
    assertThat(t.callback()).isEqualTo(Callback.to("https://h.example/tw").timeoutMs(10_000).maxAttempts(8));

    TimerInfo once = TimerInfo.fromJson(new JsonObject().put("id", "o").put("kind", "once").put("nextDueAt", 1L));
    assertThat(once.paused()).isFalse();
    assertThat(once.upcoming()).isEmpty();
    assertThat(once.callback()).isNull();
    assertThat(once.cron()).isNull();
    assertThat(once.endAt()).isNull();
  }

  @Test
  void fromJson_copies_the_answer_and_adopt_takes_it_over_and_both_hand_out_copies() {
    JsonObject answer = new JsonObject().put("id", "a").put("kind", "once").put("nextDueAt", 1L)
        .put("payload", new JsonObject().put("n", 1));
    TimerInfo copied = TimerInfo.fromJson(answer);
    TimerInfo adopted = TimerInfo.adopt(answer);
    answer.put("nextDueAt", 2L);
    assertThat(copied.nextDueAt()).isEqualTo(1L);
    assertThat(adopted.nextDueAt()).isEqualTo(2L);

    ((JsonObject) adopted.payload()).put("n", 99);
    adopted.json().put("nextDueAt", 99L);
    assertThat(adopted.payload()).isEqualTo(new JsonObject().put("n", 1));
    assertThat(adopted.nextDueAt()).isEqualTo(2L);
  }

  @Test
  void a_firing_says_its_nominal_time_and_partition_when_the_server_sends_them() {
    Firing plain = Firing.fromJson(new JsonObject().put("seq", 3).put("id", "a").put("dueAt", 1_000L));
    assertThat(plain.nominalAt()).isEqualTo(1_000L);       // absent: the due time itself
    assertThat(plain.partition()).isNull();
    Firing jittered = Firing.fromJson(new JsonObject().put("seq", 4).put("id", "b").put("dueAt", 1_150L)
        .put("nominalAt", 1_000L).put("partition", 17));
    assertThat(jittered.nominalAt()).isEqualTo(1_000L);
    assertThat(jittered.partition()).isEqualTo(17);
  }

  @Test
  void a_topic_answer_maps_its_three_fields() {
    assertThat(TopicInfo.fromJson(new JsonObject().put("topic", "t").put("pending", 12).put("paused", true)))
        .isEqualTo(new TopicInfo("t", 12, true));
  }
}
