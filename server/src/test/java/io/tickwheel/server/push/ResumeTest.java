package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.store.StoreUnavailableException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resuming with the last seen seq, over WebSocket ({@code from}) and SSE ({@code Last-Event-ID}, {@code ?from=}):
 * the retained firings after it, then the live ones, each exactly once and in seq order, also when firings are
 * published while the log is being replayed.
 */
@ExtendWith(VertxExtension.class)
class ResumeTest {

  private static List<Long> range(long fromExclusive, long toInclusive) {
    return LongStream.rangeClosed(fromExclusive + 1, toInclusive).boxed().toList();
  }

  @Test
  void wsResumeGetsRetainedThenLiveFiringsExactlyOnceInOrderWhilePublishingDuringTheReplay(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(1024, 16, 4096));
    server.fire(1000, "a");
    try (WsProbe client = WsProbe.connect(server)) {
      Future<Integer> publishing = server.startPublishing(300, 1, 0, true, null, "a", "b");
      client.subscribeFrom(100, "*");
      assertThat(client.next("subscribed").getLong("seq")).isEqualTo(1000);

      int turnsDuringReplay = PushServer.await(publishing);

      assertThat(turnsDuringReplay).as("firings were published while the log was replayed").isPositive();
      assertThat(client.seqsUntil(1300)).containsExactlyElementsOf(range(100, 1300));
      assertThat(client.untilPong()).isEmpty();
      assertThat(server.counter("tickwheel.push.firings.replayed", "ws")).isBetween(900.0, 1200.0);
    }
  }

  @Test
  void wsResumeStaysExactWhenTheLiveBufferOverflowsDuringTheReplay(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(8, 4, 4096));
    server.fire(200, "a");
    try (WsProbe client = WsProbe.connect(server)) {
      Future<Integer> publishing = server.startPublishing(100, 3, 0, true, null, "a");
      client.subscribeFrom(0, "*");
      client.next("subscribed");

      int turnsDuringReplay = PushServer.await(publishing);

      assertThat(turnsDuringReplay).isPositive();
      assertThat(client.seqsUntil(500)).containsExactlyElementsOf(range(0, 500));
      assertThat(server.hub.replayBufferOverflows).as("the small live buffer overflowed").isPositive();
      server.fire("a");
      assertThat(client.untilPong()).extracting(m -> m.getLong("seq")).containsExactly(501L);
    }
  }

  @Test
  void wsResumeReadsTheLogAgainWhenLiveFiringsOverflowWhileItsLastReadIsInFlight(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(16, 16, 4096));
    server.fire(10, "a");
    server.reads.afterNextRead(() -> server.fireOnContext(true, null, PushServer.repeat(20, "a")));
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(0, "a");
      client.next("subscribed");

      assertThat(client.seqsUntil(30)).containsExactlyElementsOf(range(0, 30));
      assertThat(server.hub.replayBufferOverflows).isEqualTo(1);
      server.fire("a");
      assertThat(client.untilPong()).extracting(m -> m.getLong("seq")).containsExactly(31L);
    }
  }

  @Test
  void wsResumeWithTopicsReplaysOnlyThoseTopics(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    List<Firing> history = server.fire("a", "b", "c", "a", "b", "c", "a");
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(1, "a", "c");
      client.next("subscribed");
      List<Firing> live = server.fire("b", "c");

      List<Long> expected = history.stream().filter(f -> f.seq() > 1 && !f.topic().equals("b")).map(Firing::seq)
          .toList();
      assertThat(client.firings(expected.size())).extracting(m -> m.getLong("seq")).containsExactlyElementsOf(expected);
      assertThat(client.untilPong()).extracting(m -> m.getLong("seq")).containsExactly(live.get(1).seq());
    }
  }

  @Test
  void wsResumeFromTheLatestSeqReplaysNothing(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(20, "a");
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(20, "a");
      client.next("subscribed");
      assertThat(client.untilPong()).isEmpty();
      server.fire("a");
      assertThat(client.untilPong()).extracting(m -> m.getLong("seq")).containsExactly(21L);
    }
  }

  @Test
  void wsResumeOlderThanRetentionGetsAGapNoticeThenWhatIsRetained(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(50, "a");
    server.trimTo(10);
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(5, "a");
      client.next("subscribed");

      JsonObject gap = client.next("error");
      assertThat(gap.getString("code")).isEqualTo("gap");
      assertThat(gap.getLong("from")).isEqualTo(6);
      assertThat(gap.getLong("to")).isEqualTo(40);
      assertThat(gap.getString("message")).contains("6..40");
      assertThat(client.seqsUntil(50)).containsExactlyElementsOf(range(40, 50));
      assertThat(server.counter("tickwheel.push.gaps", "ws")).isEqualTo(1);
    }
  }

  @Test
  void wsSocketCanResubscribeFromAfterUnsubscribingEverything(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(10, "a");
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(8, "a");
      client.next("subscribed");
      assertThat(client.seqsUntil(10)).containsExactly(9L, 10L);
      client.send(new JsonObject().put("op", "unsubscribe").put("topics", new io.vertx.core.json.JsonArray().add("a")));
      client.next("unsubscribed");

      client.subscribeFrom(3, "a");
      client.next("subscribed");
      assertThat(client.seqsUntil(10)).containsExactlyElementsOf(range(3, 10));
    }
  }

  @Test
  void resumeCoversFiringsRecordedBeforeTheHubStarted(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096), FiringHub.SSE_HEARTBEAT_MS,
        new io.vertx.core.http.HttpServerOptions(), 30);
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(10, "seeded");
      assertThat(client.next("subscribed").getLong("seq")).isEqualTo(30);
      assertThat(client.seqsUntil(30)).containsExactlyElementsOf(range(10, 30));
    }
    try (SseProbe client = SseProbe.open(server, "/v1/events", "Last-Event-ID", "28")) {
      assertThat(client.seqsUntil(30)).containsExactly(29L, 30L);
    }
  }

  @Test
  void replayThatCannotReadTheLogTellsTheClientAndClosesTheSocket(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(5, "a");
    server.reads.failNextRead(new StoreUnavailableException("redis down"));
    try (WsProbe client = WsProbe.connect(server)) {
      client.subscribeFrom(0, "a");
      client.next("subscribed");
      JsonObject error = client.next("error");
      assertThat(error.getString("code")).isEqualTo("unavailable");
      assertThat(error.getString("message")).contains("redis down");
      assertThat(client.awaitClose()).isEqualTo((short) 1011);
    }
    server.reads.failNextRead(new StoreUnavailableException("redis down"));
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=0")) {
      SseProbe.Event error = client.next("error");
      assertThat(error.json().getString("code")).isEqualTo("unavailable");
      client.awaitEnd();
    }
    Awaitility.await("both are forgotten").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
        .until(() -> server.subscribers() == 0);
  }

  @Test
  void sseResumesAfterLastEventIdWhilePublishingDuringTheReplay(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(1024, 16, 4096));
    server.fire(1000, "a");
    Future<Integer> publishing = server.startPublishing(300, 1, 0, true, null, "a", "b");
    try (SseProbe client = SseProbe.open(server, "/v1/events", "Last-Event-ID", "250")) {
      assertThat(client.status()).isEqualTo(200);

      int turnsDuringReplay = PushServer.await(publishing);

      assertThat(turnsDuringReplay).isPositive();
      assertThat(client.seqsUntil(1300)).containsExactlyElementsOf(range(250, 1300));
    }
  }

  @Test
  void sseResumesAfterFromQueryParameterWithTopicFilter(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    List<Firing> history = server.fire("a", "b", "a", "b", "a");
    try (SseProbe client = SseProbe.open(server, "/v1/events?topic=a&from=1")) {
      List<Firing> live = server.fire("b", "a");

      assertThat(client.seqsUntil(live.get(1).seq()))
          .containsExactly(history.get(2).seq(), history.get(4).seq(), live.get(1).seq());
    }
  }

  @Test
  void sseLastEventIdWinsOverTheFromOfTheUrl(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(10, "a");
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=2", "Last-Event-ID", "7")) {
      assertThat(client.seqsUntil(10)).containsExactly(8L, 9L, 10L);
    }
  }

  @Test
  void sseResumeOlderThanRetentionGetsAGapEventWithoutId(Vertx vertx) {
    PushServer server = PushServer.start(vertx, new PushOptions(64, 16, 4096));
    server.fire(30, "a");
    server.trimTo(5);
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=0")) {
      SseProbe.Event gap = client.next("gap");
      assertThat(gap.id()).as("a gap notice does not move the last event id").isNull();
      assertThat(gap.json().getString("code")).isEqualTo("gap");
      assertThat(gap.json().getLong("from")).isEqualTo(1);
      assertThat(gap.json().getLong("to")).isEqualTo(25);
      assertThat(client.seqsUntil(30)).containsExactlyElementsOf(range(25, 30));
    }
  }
}
