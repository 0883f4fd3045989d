package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Single node: every firing carries its cursor; WS and SSE resume by it; bad cursors are refused naming the field. */
@ExtendWith(VertxExtension.class)
class CursorResumeTest {

  @Test
  void wsFiringsCarryACursorAndResumingByItOnANewSocketMissesAndRepeatsNothing(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(6, "a");
    String resumeAt;
    try (WsProbe first = WsProbe.connect(server)) {
      first.subscribeFrom(0, "*");
      JsonObject subscribed = first.next("subscribed");
      assertThat(subscribed.getString("cursor")).isEqualTo("6");
      List<JsonObject> got = first.firings(6);
      for (JsonObject m : got) {
        assertThat(m.getString("cursor")).isEqualTo(Long.toString(m.getLong("seq")));
        assertThat(m.containsKey("partition")).as("a single node's firings name no partition").isFalse();
      }
      resumeAt = got.get(3).getString("cursor");
    }
    List<Firing> later = server.fire("a", "b", "a");
    try (WsProbe second = WsProbe.connect(server)) {
      second.subscribeFrom(resumeAt, "*");
      second.next("subscribed");
      assertThat(second.seqsUntil(later.get(2).seq())).containsExactly(5L, 6L, 7L, 8L, 9L);
      assertThat(second.untilPong()).isEmpty();
    }
  }

  @Test
  void sseEventIdIsTheCursorAndLastEventIdResumesAfterIt(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(4, "a");
    String lastId;
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=0")) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        SseProbe.Event e = client.next("fired");
        assertThat(e.id()).isEqualTo(e.json().getString("cursor"));
        ids.add(e.id());
      }
      lastId = ids.get(1);
    }
    server.fire("a");
    try (SseProbe resumed = SseProbe.open(server, "/v1/events?from=0", "Last-Event-ID", lastId)) {
      assertThat(resumed.seqsUntil(5)).containsExactly(3L, 4L, 5L);
    }
    try (SseProbe byQuery = SseProbe.open(server, "/v1/events?from=" + lastId)) {
      assertThat(byQuery.seqsUntil(5)).containsExactly(3L, 4L, 5L);
    }
  }

  @Test
  void wsCursorOlderThanRetentionGetsAGapNoticeThenEveryRetainedFiring(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(20, "a");
    String old;
    try (WsProbe first = WsProbe.connect(server)) {
      first.subscribeFrom(0, "a");
      first.next("subscribed");
      old = first.firings(3).get(2).getString("cursor");
    }
    server.trimTo(4);
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(old, "a");
      client.next("subscribed");
      JsonObject gap = client.next("error");
      assertThat(gap.getString("code")).isEqualTo("gap");
      assertThat(gap.getLong("from")).isEqualTo(4);
      assertThat(gap.getLong("to")).isEqualTo(16);
      assertThat(client.seqsUntil(20)).containsExactly(17L, 18L, 19L, 20L);
    }
  }

  @Test
  void wsMalformedCursorIsAnErrorNamingFromAndTheSocketStaysUsable(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(2, "a");
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom("c!!not-base64", "a");
      JsonObject error = client.next("error");
      assertThat(error.getString("code")).isEqualTo("invalid_argument");
      assertThat(error.getString("field")).isEqualTo("from");
      assertThat(error.getString("message")).contains("from must be the cursor of a firing").contains("c!!not-base64");

      client.subscribeFrom(FiringCursor.encode(new long[] {1, 1, 1}), "a");
      assertThat(client.next("error").getString("message")).contains("names 3 partitions, this server has 1");

      client.subscribeFrom("1", "a");
      client.next("subscribed");
      assertThat(client.seqsUntil(2)).containsExactly(2L);
    }
  }

  @Test
  void sseMalformedCursorIs400NamingTheFieldItCameIn(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(2, "a");
    try (SseProbe byQuery = SseProbe.open(server, "/v1/events?from=zz")) {
      assertThat(byQuery.status()).isEqualTo(400);
      JsonObject error = byQuery.bodyJson().getJsonObject("error");
      assertThat(error.getString("field")).isEqualTo("from");
      assertThat(error.getString("message")).contains("\"zz\"");
    }
    try (SseProbe byHeader = SseProbe.open(server, "/v1/events", "Last-Event-ID", "c")) {
      assertThat(byHeader.status()).isEqualTo(400);
      JsonObject error = byHeader.bodyJson().getJsonObject("error");
      assertThat(error.getString("field")).isEqualTo("Last-Event-ID");
      assertThat(error.getString("message")).contains("cut short");
    }
  }
}
