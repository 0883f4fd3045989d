package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A subscriber that stops reading is cut off (WebSocket close 1013, SSE end of stream) while another one keeps
 * receiving everything; what the slow one did get is a gap-free prefix, and it resumes from there exactly.
 * Small socket buffers make the back pressure of the slow side reach the server after a few hundred KiB. The test
 * publishes in steps of {@value #STEP} firings and lets the fast subscriber read each step before the next, so it
 * stays fast however loaded the test machine is, while the slow one does not read at all.
 */
@ExtendWith(VertxExtension.class)
class SlowSubscriberTest {

  private static final int FIRINGS = 1000;
  private static final int STEP = 10;
  private static final String PAYLOAD = "\"" + "p".repeat(4096) + "\"";

  private PushServer server;

  @BeforeEach
  void start(Vertx vertx) {
    server = PushServer.start(vertx, new PushOptions(32, 16, 4096), FiringHub.SSE_HEARTBEAT_MS,
        new HttpServerOptions().setSendBufferSize(64 * 1024), 0);
  }

  private static List<Long> range(long fromExclusive, long toInclusive) {
    return LongStream.rangeClosed(fromExclusive + 1, toInclusive).boxed().toList();
  }

  @Test
  void slowWebSocketIsClosedWith1013WhileAFastOneGetsEverythingAndItResumesExactly() {
    try (WsProbe slow = WsProbe.connect(server, new WebSocketClientOptions().setReceiveBufferSize(16 * 1024));
         WsProbe fast = WsProbe.connect(server)) {
      slow.subscribe("*");
      slow.next("subscribed");
      fast.subscribe("*");
      fast.next("subscribed");
      slow.ws.pause();

      List<Long> fastGot = new ArrayList<>();
      for (int step = 0; step < FIRINGS / STEP; step++) {
        server.fireWithPayload(PAYLOAD, PushServer.repeat(STEP, step % 2 == 0 ? "a" : "b"));
        fast.firings(STEP).forEach(m -> fastGot.add(m.getLong("seq")));
      }

      assertThat(fastGot).as("the fast subscriber got everything, in order").containsExactlyElementsOf(range(0, FIRINGS));
      assertThat(server.counter("tickwheel.push.slow.closes", "ws")).isEqualTo(1);
      assertThat(server.subscribers()).isEqualTo(1);

      slow.ws.resume();
      assertThat(slow.awaitClose()).isEqualTo((short) 1013);
      assertThat(slow.ws.closeReason()).isEqualTo("subscriber too slow, resume with from");
      List<Long> got = new ArrayList<>();
      for (JsonObject m; (m = slow.messages.poll()) != null; ) {
        got.add(m.getLong("seq"));
      }
      assertThat(got).as("the slow one got a gap-free prefix").isNotEmpty()
          .containsExactlyElementsOf(range(0, got.size()));
      assertThat(got.size()).isLessThan(FIRINGS);

      try (WsProbe again = WsProbe.connect(server)) {
        again.subscribeFrom(got.size(), "*");
        again.next("subscribed");
        assertThat(again.seqsUntil(FIRINGS)).containsExactlyElementsOf(range(got.size(), FIRINGS));
      }
    }
  }

  @Test
  void slowEventStreamIsEndedWhileAFastOneGetsEverythingAndItResumesExactly() throws Exception {
    try (SseProbe slow = SseProbe.open(server, new HttpClientOptions().setReceiveBufferSize(16 * 1024), "/v1/events");
         SseProbe fast = SseProbe.open(server, "/v1/events")) {
      Awaitility.await("both subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
          .until(() -> server.subscribers() == 2);
      slow.response.pause();

      List<Long> fastGot = new ArrayList<>();
      for (int step = 0; step < FIRINGS / STEP; step++) {
        server.fireWithPayload(PAYLOAD, PushServer.repeat(STEP, step % 2 == 0 ? "a" : "b"));
        for (int i = 0; i < STEP; i++) {
          fastGot.add(fast.next("fired").json().getLong("seq"));
        }
      }

      assertThat(fastGot).containsExactlyElementsOf(range(0, FIRINGS));
      assertThat(server.counter("tickwheel.push.slow.closes", "sse")).isEqualTo(1);
      assertThat(server.subscribers()).isEqualTo(1);

      slow.response.resume();
      slow.awaitEnd();
      List<Long> got = new ArrayList<>();
      SseProbe.Event last = null;
      for (SseProbe.Event e; (e = slow.events.poll(1, TimeUnit.SECONDS)) != null; ) {
        last = e;
        if (e.event().equals("fired")) {
          got.add(e.json().getLong("seq"));
        }
      }
      assertThat(last).isNotNull();
      assertThat(last.event()).isEqualTo("error");
      assertThat(last.json().getString("code")).isEqualTo("slow_consumer");
      assertThat(got).isNotEmpty().containsExactlyElementsOf(range(0, got.size()));

      try (SseProbe again = SseProbe.open(server, "/v1/events", "Last-Event-ID", Long.toString(got.size()))) {
        assertThat(again.seqsUntil(FIRINGS)).containsExactlyElementsOf(range(got.size(), FIRINGS));
      }
    }
  }
}
