package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /v1/ws} end to end over real sockets: the client protocol and live delivery. */
@ExtendWith(VertxExtension.class)
class WebSocketPushTest {

  private PushServer server;
  private WsProbe client;

  @BeforeEach
  void start(Vertx vertx) {
    server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    client = WsProbe.connect(server);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  @Test
  void subscriberReceivesLiveFiringsOfItsTopicOnlyWithTheContractFields() {
    client.subscribe("a");
    JsonObject subscribed = client.next("subscribed");
    assertThat(subscribed.getJsonArray("topics")).containsExactly("a");
    assertThat(subscribed.getLong("seq")).isZero();

    List<Firing> fired = server.fire("a", "b", "a");

    List<JsonObject> got = client.untilPong();
    assertThat(got).extracting(m -> m.getLong("seq")).containsExactly(fired.get(0).seq(), fired.get(2).seq());
    JsonObject first = got.get(0);
    Firing f = fired.get(0);
    assertThat(first.getString("type")).isEqualTo("fired");
    assertThat(first.getString("id")).isEqualTo(f.id());
    assertThat(first.getString("topic")).isEqualTo("a");
    assertThat(first.getLong("firing")).isEqualTo(1);
    assertThat(first.getLong("dueAt")).isEqualTo(f.dueAt());
    assertThat(first.getLong("firedAt")).isEqualTo(f.firedAt());
    assertThat(first.containsKey("payload")).isTrue();
  }

  @Test
  void wildcardSubscriberReceivesEveryTopicInSeqOrder() {
    client.subscribe("*");
    client.next("subscribed");

    List<Firing> fired = server.fire("a", "b", "c", "a");

    assertThat(client.untilPong()).extracting(m -> m.getLong("seq"))
        .containsExactlyElementsOf(fired.stream().map(Firing::seq).toList());
  }

  @Test
  void subscribeWithoutFromGetsOnlyFiringsPublishedAfterItAndReportsTheLatestSeq() {
    List<Firing> before = server.fire(5, "a");

    client.subscribe("a");
    assertThat(client.next("subscribed").getLong("seq")).isEqualTo(before.get(4).seq());
    List<Firing> after = server.fire("a");

    assertThat(client.untilPong()).extracting(m -> m.getLong("seq")).containsExactly(after.get(0).seq());
  }

  @Test
  void topicsAccumulateOverSubscribesAndRepliesListTheWholeSubscription() {
    client.subscribe("b");
    client.next("subscribed");
    client.subscribe("a", "b");
    assertThat(client.next("subscribed").getJsonArray("topics")).containsExactly("a", "b");

    List<Firing> fired = server.fire("a", "b", "c");

    assertThat(client.untilPong()).extracting(m -> m.getString("topic")).containsExactly("a", "b");
    assertThat(fired).hasSize(3);
  }

  @Test
  void unsubscribeStopsThoseTopicsAndKeepsTheOthers() {
    client.subscribe("a", "b");
    client.next("subscribed");
    client.send(new JsonObject().put("op", "unsubscribe").put("topics", new JsonArray().add("a")));
    assertThat(client.next("unsubscribed").getJsonArray("topics")).containsExactly("b");

    server.fire("a", "b", "a");

    assertThat(client.untilPong()).extracting(m -> m.getString("topic")).containsExactly("b");
  }

  @Test
  void unsubscribingEverythingStopsAllDelivery() {
    client.subscribe("*");
    client.next("subscribed");
    client.send(new JsonObject().put("op", "unsubscribe").put("topics", new JsonArray().add("*")));
    assertThat(client.next("unsubscribed").getJsonArray("topics")).isEmpty();

    server.fire("a", "b");

    assertThat(client.untilPong()).isEmpty();
  }

  @Test
  void pingIsAnsweredWithPong() {
    client.send(new JsonObject().put("op", "ping"));
    assertThat(client.next()).isEqualTo(new JsonObject().put("type", "pong"));
  }

  @Test
  void badJsonGetsAnErrorAndTheSocketStaysOpen() {
    client.send("{not json");
    JsonObject error = client.next("error");
    assertThat(error.getString("code")).isEqualTo("invalid_argument");
    assertThat(error.getString("message")).contains("not valid JSON").contains("{not json");

    client.send("[1,2]");
    assertThat(client.next("error").getString("message")).contains("JSON object");

    assertThat(client.untilPong()).isEmpty();
  }

  @Test
  void unknownOrMissingOpGetsAnErrorNamingTheFieldAndValue() {
    client.send(new JsonObject().put("op", "dance"));
    JsonObject unknown = client.next("error");
    assertThat(unknown.getString("field")).isEqualTo("op");
    assertThat(unknown.getString("message")).contains("\"dance\"").contains("subscribe, unsubscribe, ping");

    client.send(new JsonObject().put("topics", new JsonArray().add("a")));
    assertThat(client.next("error").getString("field")).isEqualTo("op");

    assertThat(client.untilPong()).isEmpty();
  }

  @Test
  void badTopicsAreRejectedWholeNamingTheEntryAndNothingIsSubscribed() {
    client.send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("ok").add("bad topic!")));
    JsonObject error = client.next("error");
    assertThat(error.getString("code")).isEqualTo("invalid_argument");
    assertThat(error.getString("field")).isEqualTo("topics[1]");
    assertThat(error.getString("message")).contains("\"bad topic!\"");

    client.send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray()));
    assertThat(client.next("error").getString("field")).isEqualTo("topics");
    client.send(new JsonObject().put("op", "subscribe").put("topics", "a"));
    assertThat(client.next("error").getString("field")).isEqualTo("topics");
    client.send(new JsonObject().put("op", "unsubscribe").put("topics", new JsonArray().add(7)));
    assertThat(client.next("error").getString("field")).isEqualTo("topics[0]");

    server.fire("ok");
    assertThat(client.untilPong()).as("the rejected subscribe applied nothing").isEmpty();

    client.subscribe("ok");
    client.next("subscribed");
    server.fire("ok");
    assertThat(client.untilPong()).hasSize(1);
  }

  @Test
  void badFromIsRejectedNamingTheValue() {
    client.send(new JsonObject().put("op", "subscribe").put("topics", new JsonArray().add("a")).put("from", "x"));
    JsonObject notNumber = client.next("error");
    assertThat(notNumber.getString("field")).isEqualTo("from");
    assertThat(notNumber.getString("message")).contains("\"x\"");

    client.subscribeFrom(-1, "a");
    assertThat(client.next("error").getString("field")).isEqualTo("from");

    server.fire(3, "a");
    client.subscribeFrom(99, "a");
    JsonObject ahead = client.next("error");
    assertThat(ahead.getString("field")).isEqualTo("from");
    assertThat(ahead.getString("message")).contains("99").contains("latest firing seq 3");
  }

  @Test
  void fromIsRefusedWhileTheSocketAlreadyHasASubscription() {
    server.fire(3, "a");
    client.subscribe("a");
    client.next("subscribed");

    client.subscribeFrom(0, "b");

    JsonObject error = client.next("error");
    assertThat(error.getString("field")).isEqualTo("from");
    assertThat(error.getString("message")).contains("[a]");
    server.fire("b");
    assertThat(client.untilPong()).as("b was not subscribed").isEmpty();
  }

  @Test
  void binaryMessageGetsAnErrorAndTheSocketStaysOpen() {
    PushServer.await(client.ws.writeBinaryMessage(Buffer.buffer("{\"op\":\"ping\"}")));
    assertThat(client.next("error").getString("message")).contains("binary");
    assertThat(client.untilPong()).isEmpty();
  }

  @Test
  void messageUpToTheLimitIsServedAndOneFrameOverItClosesWith1009() {
    String ping = "{\"op\":\"ping\"}";    // padded with JSON whitespace: a ping takes no other field
    String atLimit = ping.substring(0, ping.length() - 1) + " ".repeat(4096 - ping.length()) + "}";
    assertThat(atLimit.length()).isEqualTo(4096);
    client.send(atLimit);
    client.next("pong");

    String over = new JsonObject().put("op", "ping").put("pad", "x".repeat(4097)).encode();
    PushServer.await(client.ws.writeFrame(WebSocketFrame.textFrame(over, true)));

    assertThat(client.awaitClose()).isEqualTo((short) 1009);
  }

  @Test
  void frameOverTheServersFrameLimitAlsoClosesWith1009() {
    try (WsProbe big = WsProbe.connect(server, new WebSocketClientOptions().setMaxFrameSize(1 << 20))) {
      String frame = "{\"op\":\"ping\",\"pad\":\"" + "x".repeat(70_000) + "\"}"; // over Vert.x's default 65536
      PushServer.await(big.ws.writeFrame(WebSocketFrame.textFrame(frame, true)));

      assertThat(big.awaitClose()).isEqualTo((short) 1009);
      assertThat(big.ws.closeReason()).contains("65536");
    }
  }

  @Test
  void fragmentedMessageOverTheLimitClosesWith1009() {
    PushServer.await(client.ws.writeFrame(WebSocketFrame.textFrame("{\"op\":\"ping\",\"pad\":\"" + "x".repeat(2000), false)));
    PushServer.await(client.ws.writeFrame(WebSocketFrame.continuationFrame(Buffer.buffer("y".repeat(2000)), false)));
    PushServer.await(client.ws.writeFrame(WebSocketFrame.continuationFrame(Buffer.buffer("z".repeat(2000) + "\"}"), true)));

    assertThat(client.awaitClose()).isEqualTo((short) 1009);
  }

  @Test
  void fragmentedMessageWithinTheLimitIsReassembled() {
    PushServer.await(client.ws.writeFrame(WebSocketFrame.textFrame("{\"op\":", false)));
    PushServer.await(client.ws.writeFrame(WebSocketFrame.continuationFrame(Buffer.buffer("\"ping\""), false)));
    PushServer.await(client.ws.writeFrame(WebSocketFrame.continuationFrame(Buffer.buffer("}"), true)));

    client.next("pong");
  }

  @Test
  void subscriberGaugeAndDeliveredCounterFollowTheSockets() {
    try (WsProbe second = WsProbe.connect(server)) {
      Awaitility.await("two ws subscribers").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
          .until(() -> server.gauge("tickwheel.push.subscribers", "ws") == 2);
      client.subscribe("*");
      client.next("subscribed");
      second.subscribe("a");
      second.next("subscribed");

      server.fire("a", "b");
      client.untilPong();
      second.untilPong();

      assertThat(server.counter("tickwheel.push.firings.delivered", "ws")).isEqualTo(3);
    }
    Awaitility.await("the closed socket is forgotten")
        .atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5)).until(() -> server.subscribers() == 1);
    assertThat(server.gauge("tickwheel.push.subscribers", "ws")).isEqualTo(1);
  }

  @Test
  void closingTheHubClosesSocketsWith1001AndRefusesNewOnes() {
    client.subscribe("*");
    client.next("subscribed");

    server.call(() -> server.hub.close());

    assertThat(client.awaitClose()).isEqualTo((short) 1001);
    assertThat(server.subscribers()).isZero();
    try (WsProbe late = WsProbe.connect(server)) {
      assertThat(late.awaitClose()).isEqualTo((short) 1001);
    }
  }
}
