package io.tickwheel.server.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.route.InternalAnswer.Done;
import io.tickwheel.server.route.InternalAnswer.Refused;
import io.tickwheel.server.route.InternalAnswer.Result;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calls between nodes, both ways: every call decodes to what was sent (a spec parses back to the same spec), a
 * timer comes back exactly (generation and nominal time included), every answer reads back, and anything else is
 * refused with its reason.
 */
class InternalCodecTest {

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

  private TimerSpec spec(String body) {
    return parser.parse(new JsonObject(body), NOW);
  }

  private InternalCall decode(InternalCall call) {
    return InternalCodec.decode(InternalCodec.encode(call), j -> parser.parse(j, NOW));
  }

  @Test
  void aSpecSentToTheOwnerParsesBackToTheSameSpec() {
    for (String body : BODIES) {
      TimerSpec spec = spec(body);
      assertThat(parser.parse(new JsonObject(InternalCodec.specText(spec)), NOW)).as(body).isEqualTo(spec);
    }
  }

  @Test
  void everyCallDecodesToWhatWasSentIdsWithDotsIncluded() {
    List<TimerSpec> specs = BODIES.stream().map(this::spec).toList();
    InternalCall.CreateAll created = (InternalCall.CreateAll) decode(new InternalCall.CreateAll(specs));
    assertThat(created.specs()).isEqualTo(specs);
    assertThat(created.refused()).containsOnlyNulls();
    for (InternalCall c : List.of(new InternalCall.TouchAll(List.of("a", "..", "x.y:z"), 60_000L),
        new InternalCall.TouchAll(List.of("."), null),
        new InternalCall.Upsert(spec(BODIES.get(2))),
        new InternalCall.OnTimer(InternalCall.Op.GET, "."), new InternalCall.OnTimer(InternalCall.Op.CANCEL, ".."),
        new InternalCall.OnTimer(InternalCall.Op.PAUSE, "a.b"), new InternalCall.OnTimer(InternalCall.Op.RESUME, "a"),
        new InternalCall.OnTimer(InternalCall.Op.FIRE, "a"), new InternalCall.Topics("alpha", 10, null),
        new InternalCall.Topics(null, 1, "beta"), new InternalCall.RetryDelivery("msg_3_17"))) {
      assertThat(decode(c)).as(c.toString()).isEqualTo(c);
    }
  }

  @Test
  void aSpecTheOwnersParserRefusesIsRefusedAloneTheOthersStand() {
    Buffer body = Buffer.buffer("{\"call\":\"create_all\",\"timers\":[{\"id\":\"a\",\"delayMs\":5},"
        + "{\"id\":\"b\",\"delayMs\":-1}]}");
    InternalCall.CreateAll c = (InternalCall.CreateAll) InternalCodec.decode(body, j -> parser.parse(j, NOW));
    assertThat(c.specs().get(0).id()).isEqualTo("a");
    assertThat(c.specs().get(1)).isNull();
    assertThat(c.refused()[0]).isNull();
    assertThat(c.refused()[1]).hasMessageContaining("delayMs");
  }

  @Test
  void anUnknownOrMalformedCallIsRefusedNamingIt() {
    assertThatThrownBy(() -> InternalCodec.decode(Buffer.buffer("{\"call\":\"explode\"}"), j -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown call \"explode\"")
        .hasMessageContaining("v1");
    assertThatThrownBy(() -> InternalCodec.decode(Buffer.buffer("{\"call\":\"touch_all\"}"), j -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed \"touch_all\"");
    assertThatThrownBy(() -> InternalCodec.decode(Buffer.buffer("[1]"), j -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a JSON object");
  }

  @Test
  void aTimerComesBackExactlyGenerationAndNominalTimeIncluded() {
    for (String body : BODIES) {
      Timer t = Schedule.accept(spec(body).withId("x-1"), NOW, 3);
      t = Schedule.touch(t, NOW + 7, 90_000L);
      Timer back = InternalCodec.timer(new JsonObject(TimerJson.appendState(new StringBuilder(), t).toString()));
      assertThat(back).as(body).isEqualTo(t);
      assertThat(Schedule.upcoming(back)).isEqualTo(Schedule.upcoming(t));
    }
  }

  @Test
  void everyAnswerReadsBackAsTheOwnersOutcome() {
    Timer t = Schedule.accept(spec(BODIES.get(2)), NOW, 5);
    InternalCall create = new InternalCall.CreateAll(List.of(spec(BODIES.get(0)), spec(BODIES.get(2))));
    Refused exists = new Refused(409, "already_exists", "timer \"a\" already exists", "id", 0);
    Object items = ForwardedAnswers.items(create, List.of("a", "r"), ok(new InternalAnswer.Items(List.of(exists,
        new Done(Result.CREATED, t)))));
    assertThat(items).isEqualTo(List.of(new Refusal.Conflict("a"), new WriteOutcome.Created(t)));

    InternalCall cancel = new InternalCall.OnTimer(InternalCall.Op.CANCEL, "a");
    assertThat(ForwardedAnswers.write(cancel, "a", ok(new Done(Result.CANCELLED, null))))
        .isEqualTo(new WriteOutcome.Cancelled("a"));
    Refused busy = new Refused(503, "unavailable", "timer \"a\" is busy", null, 1);
    assertThat(ForwardedAnswers.write(cancel, "a", ok(busy)))
        .isEqualTo(new Refusal.Remote(503, "unavailable", "timer \"a\" is busy", null, 1));
    InternalCall get = new InternalCall.OnTimer(InternalCall.Op.GET, "r");
    assertThat(ForwardedAnswers.read(get, "r", ok(new Done(Result.FOUND, t))))
        .isEqualTo(new io.tickwheel.server.scheduler.ReadOutcome.Found(t));
    assertThat(ForwardedAnswers.read(get, "r", ok(new Refused(404, "not_found", "no timer", null, 0))))
        .isEqualTo(new Refusal.NotFound("r"));

    InternalCall topics = new InternalCall.Topics(null, 10, null);
    List<TopicInfo> page = List.of(new TopicInfo("a", 3, false), new TopicInfo("b", 0, true));
    assertThat(ForwardedAnswers.topics(topics, ok(new InternalAnswer.TopicPage(page)))).isEqualTo(page);

    Delivery d = Delivery.pending(new Firing(17, "a", "default", 1, 100, 100, "{\"x\":1}"),
        Callback.to("https://example.com/"));
    InternalCall retry = new InternalCall.RetryDelivery("msg_3_17");
    for (DeliveryOutcome o : List.of(new DeliveryOutcome.Requeued(d, "msg_3_17"),
        new DeliveryOutcome.NotFound("msg_3_17"), new DeliveryOutcome.NotDead("msg_3_17", "pending"),
        new DeliveryOutcome.Full(5), new DeliveryOutcome.StoreFailed("down"), new DeliveryOutcome.Unrouted("moved"))) {
      assertThat(InternalCodec.answer(retry, ok(new InternalAnswer.Delivery(o)))).isEqualTo(new InternalAnswer.Delivery(o));
    }
  }

  @Test
  void anHttpRefusalIsTheWholeCallsAndAnUnreadableAnswerIs502() {
    InternalCall touch = new InternalCall.TouchAll(List.of("a", "b"), null);
    Forwarder.Answer recovering = new Forwarder.Answer(503, Buffer.buffer("{\"error\":{\"code\":\"unavailable\","
        + "\"message\":\"the server is recovering its timers; retry shortly\"}}"), 2);
    assertThat(ForwardedAnswers.items(touch, List.of("a", "b"), recovering)).isEqualTo(new Refusal.Remote(503,
        "unavailable", "the server is recovering its timers; retry shortly", null, 2));
    Object garbled = ForwardedAnswers.items(touch, List.of("a", "b"), new Forwarder.Answer(200,
        Buffer.buffer("<html>proxy</html>"), 0));
    assertThat(garbled).isInstanceOf(Refusal.Remote.class);
    assertThat(((Refusal.Remote) garbled).status()).isEqualTo(502);
    Object short1 = ForwardedAnswers.items(touch, List.of("a", "b"),
        ok(new InternalAnswer.Items(List.of(new Refused(404, "not_found", "no", null, 0)))));
    assertThat(((Refusal.Remote) short1).message()).contains("1 items for 2 calls");
    assertThatThrownBy(() -> InternalCodec.timer(new JsonObject().put("id", "a").put("kind", "sometimes")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sometimes");
  }

  private static Forwarder.Answer ok(InternalAnswer a) {
    return new Forwarder.Answer(200, InternalCodec.encode(a), 0);
  }
}
