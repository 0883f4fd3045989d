package io.tickwheel.core.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.model.Firing;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class DeliveryTest {

  private static final Firing FIRING = new Firing(42, "t1", "billing", 3, 1000, 1005, "{\"a\":[1,\"x\"]}", 990);
  private static final Callback CB = new Callback("https://example.com/hook?x=1", 2000, 3, 100, 1000);

  @Test
  void aNewDeliveryIsPendingAtItsFiringTimeWithTheFiringSeqAsId() {
    Delivery d = Delivery.pending(FIRING, CB);
    assertThat(d.id()).isEqualTo("msg_42");
    assertThat(d.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(d.nextAttemptAt()).isEqualTo(1005);
    assertThat(d.nextAttemptNumber()).isEqualTo(1);
    assertThat(d.attemptsInRound()).isZero();
  }

  @Test
  void idsParseBackToTheirSeqAndAnythingElseIsNotAnId() {
    assertThat(Delivery.seqOf("msg_42")).isEqualTo(42);
    assertThat(Delivery.seqOf(Delivery.idOf(Long.MAX_VALUE / 10))).isEqualTo(Long.MAX_VALUE / 10);
    for (String bad : new String[] {"msg_", "msg_0", "msg_01", "msg_-1", "42", "msg_4a", "msg_1234567890123456789", null}) {
      assertThat(Delivery.seqOf(bad)).as(bad).isEqualTo(-1);
    }
  }

  @Test
  void clusterIdsNameTheirPartitionAndSeqAndNeitherParserTakesTheOthersForm() {
    assertThat(Delivery.idOf(12, 57)).isEqualTo("msg_12_57");
    assertThat(Delivery.partitionOf("msg_12_57")).isEqualTo(12);
    assertThat(Delivery.seqInPartitionOf("msg_12_57")).isEqualTo(57);
    assertThat(Delivery.partitionOf("msg_0_1")).isZero();
    assertThat(Delivery.seqOf("msg_12_57")).as("not a single node's id").isEqualTo(-1);
    assertThat(Delivery.partitionOf("msg_57")).as("not a cluster id").isEqualTo(-1);
    for (String bad : new String[] {"msg__1", "msg_1_", "msg_01_1", "msg_1_0", "msg_1_01", "msg_a_1", "msg_1_1_1",
        "msg_1234567_1", "msg_1_-1", "x_1_1", null}) {
      assertThat(Delivery.partitionOf(bad)).as(bad).isEqualTo(-1);
      assertThat(Delivery.seqInPartitionOf(bad)).as(bad).isEqualTo(-1);
    }
  }

  @Test
  void aRequeuedDeadDeliveryGetsANewRoundAndKeepsNumberingItsAttempts() {
    Delivery d = Delivery.pending(FIRING, CB);
    d = d.after(new Attempt(1, 1005, 500, null, 12), DeliveryState.PENDING, 1105, 1017);
    d = d.after(new Attempt(2, 1105, 500, null, 10), DeliveryState.PENDING, 1305, 1115);
    d = d.after(new Attempt(3, 1305, 0, "timeout", 2000), DeliveryState.DEAD, 0, 3305);
    assertThat(d.attemptsInRound()).isEqualTo(3);
    assertThat(d.nextAttemptAt()).isZero();
    Delivery r = d.requeued(5000);
    assertThat(r.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(r.nextAttemptAt()).isEqualTo(5000);
    assertThat(r.attemptsInRound()).isZero();
    assertThat(r.nextAttemptNumber()).isEqualTo(4);
    assertThat(r.id()).isEqualTo(d.id());
  }

  @Test
  void onlyTheNewestAttemptsAreKept() {
    Delivery d = Delivery.pending(FIRING, new Callback("https://example.com/", 1000, 20, 0, 0));
    for (int i = 1; i <= Delivery.MAX_KEPT_ATTEMPTS + 5; i++) {
      d = d.after(new Attempt(i, i, 500, null, 1), DeliveryState.PENDING, i + 1, i);
    }
    assertThat(d.attempts()).hasSize(Delivery.MAX_KEPT_ATTEMPTS);
    assertThat(d.attempts().get(0).n()).isEqualTo(6);
    assertThat(d.nextAttemptNumber()).isEqualTo(Delivery.MAX_KEPT_ATTEMPTS + 6);
  }

  @Test
  void theStorageFormRoundTripsEveryField() {
    Delivery d = Delivery.pending(FIRING, CB)
        .after(new Attempt(1, 1005, 503, null, 12), DeliveryState.PENDING, 1105, 1017)
        .after(new Attempt(2, 1105, 0, "connection", 3), DeliveryState.DEAD, 0, 1108)
        .requeued(2000);
    assertThat(DeliveryJson.decode(DeliveryJson.encode(d))).isEqualTo(d);
    Delivery noPayload = Delivery.pending(new Firing(7, "t", "default", 1, 5, 6, null), Callback.to("http://h/"));
    assertThat(DeliveryJson.decode(DeliveryJson.encode(noPayload))).isEqualTo(noPayload);
  }

  @Test
  void theApiFormIsTheContractsWithTheFiringAsPushed() {
    Delivery d = Delivery.pending(FIRING, CB)
        .after(new Attempt(1, 1005, 500, null, 12), DeliveryState.PENDING, 1105, 1017)
        .after(new Attempt(2, 1105, 0, "timeout", 2000), DeliveryState.PENDING, 1305, 3105);
    JsonObject o = DeliveryJson.api(d);
    assertThat(o.fieldNames()).containsExactlyInAnyOrder("id", "timerId", "firing", "url", "state", "attempts",
        "nextAttemptAt");
    assertThat(o.getString("id")).isEqualTo("msg_42");
    assertThat(o.getString("timerId")).isEqualTo("t1");
    assertThat(o.getString("url")).isEqualTo("https://example.com/hook?x=1");
    assertThat(o.getString("state")).isEqualTo("pending");
    assertThat(o.getLong("nextAttemptAt")).isEqualTo(1305);
    assertThat(o.getJsonObject("firing")).isEqualTo(new JsonObject(
        "{\"type\":\"fired\",\"seq\":42,\"id\":\"t1\",\"topic\":\"billing\",\"firing\":3,\"dueAt\":1000,"
            + "\"nominalAt\":990,\"firedAt\":1005,\"payload\":{\"a\":[1,\"x\"]}}"));
    assertThat(o.getJsonArray("attempts").getJsonObject(0))
        .isEqualTo(new JsonObject("{\"n\":1,\"at\":1005,\"status\":500,\"durationMs\":12}"));
    assertThat(o.getJsonArray("attempts").getJsonObject(1))
        .isEqualTo(new JsonObject("{\"n\":2,\"at\":1105,\"error\":\"timeout\",\"durationMs\":2000}"));
    JsonObject dead = DeliveryJson.api(d.after(new Attempt(3, 1305, 410, null, 1), DeliveryState.DEAD, 0, 1306));
    assertThat(dead.containsKey("nextAttemptAt")).isFalse();
    assertThat(dead.getString("state")).isEqualTo("dead");
  }
}
