package io.tickwheel.server.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /v1/events} end to end over real sockets: the stream, its filters and its validation. */
@ExtendWith(VertxExtension.class)
class SsePushTest {

  private PushServer server;

  @BeforeEach
  void start(Vertx vertx) {
    server = PushServer.start(vertx, new PushOptions(64, 16, 4096), 200, new HttpServerOptions(), 0);
  }

  @Test
  void streamsFiringsOfTheRequestedTopicsAsFiredEventsWithSeqIds() {
    try (SseProbe client = SseProbe.open(server, "/v1/events?topic=a,c")) {
      assertThat(client.status()).isEqualTo(200);
      assertThat(client.headers().get("Content-Type")).startsWith("text/event-stream");
      Awaitility.await("subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
          .until(() -> server.subscribers() == 1);

      List<Firing> fired = server.fire("a", "b", "c");

      SseProbe.Event first = client.next("fired");
      assertThat(first.id()).isEqualTo(Long.toString(fired.get(0).seq()));
      JsonObject json = first.json();
      assertThat(json.getString("type")).isEqualTo("fired");
      assertThat(json.getString("id")).isEqualTo(fired.get(0).id());
      assertThat(json.getString("topic")).isEqualTo("a");
      SseProbe.Event second = client.next("fired");
      assertThat(second.json().getLong("seq")).isEqualTo(fired.get(2).seq());
      assertThat(client.events).isEmpty();
    }
  }

  @Test
  void repeatedTopicParametersAddUp() {
    try (SseProbe client = SseProbe.open(server, "/v1/events?topic=a&topic=b")) {
      Awaitility.await("subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
          .until(() -> server.subscribers() == 1);
      List<Firing> fired = server.fire("c", "b", "a");
      assertThat(client.seqsUntil(fired.get(2).seq())).containsExactly(fired.get(1).seq(), fired.get(2).seq());
    }
  }

  @Test
  void withoutTopicStreamsEveryTopicFromNowOn() {
    server.fire("old");
    try (SseProbe client = SseProbe.open(server, "/v1/events")) {
      Awaitility.await("subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
          .until(() -> server.subscribers() == 1);
      List<Firing> fired = server.fire("x", "y", "z");
      assertThat(client.seqsUntil(fired.get(2).seq())).containsExactly(2L, 3L, 4L);
    }
  }

  @Test
  void badTopicIs400NamingTheParameterAndValue() {
    try (SseProbe client = SseProbe.open(server, "/v1/events?topic=a,bad%20topic")) {
      assertThat(client.status()).isEqualTo(400);
      JsonObject error = client.bodyJson().getJsonObject("error");
      assertThat(error.getString("code")).isEqualTo("invalid_argument");
      assertThat(error.getString("field")).isEqualTo("topic");
      assertThat(error.getString("message")).contains("\"bad topic\"");
    }
    try (SseProbe client = SseProbe.open(server, "/v1/events?topic=a,,b")) {
      assertThat(client.status()).isEqualTo(400);
      assertThat(client.bodyJson().getJsonObject("error").getString("field")).isEqualTo("topic");
    }
    assertThat(server.subscribers()).isZero();
  }

  @Test
  void nonNumericFromOrLastEventIdIs400NamingIt() {
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=abc")) {
      assertThat(client.status()).isEqualTo(400);
      JsonObject error = client.bodyJson().getJsonObject("error");
      assertThat(error.getString("field")).isEqualTo("from");
      assertThat(error.getString("message")).contains("\"abc\"");
    }
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=-3")) {
      assertThat(client.status()).isEqualTo(400);
    }
    try (SseProbe client = SseProbe.open(server, "/v1/events", "Last-Event-ID", "x1")) {
      assertThat(client.status()).isEqualTo(400);
      assertThat(client.bodyJson().getJsonObject("error").getString("field")).isEqualTo("Last-Event-ID");
    }
  }

  @Test
  void fromAfterTheLatestSeqIs400() {
    server.fire(3, "a");
    try (SseProbe client = SseProbe.open(server, "/v1/events?from=4")) {
      assertThat(client.status()).isEqualTo(400);
      assertThat(client.bodyJson().getJsonObject("error").getString("message"))
          .contains("from 4 is after the latest firing seq 3");
    }
  }

  @Test
  void idleStreamGetsHeartbeatComments() throws InterruptedException {
    try (SseProbe client = SseProbe.open(server, "/v1/events")) {
      assertThat(client.comments.poll(5, TimeUnit.SECONDS)).as("the opening comment").startsWith("connected");
      assertThat(client.comments.poll(5, TimeUnit.SECONDS)).isEqualTo("heartbeat");
      assertThat(client.comments.poll(5, TimeUnit.SECONDS)).isEqualTo("heartbeat");
      assertThat(client.events).isEmpty();
    }
  }

  @Test
  void disconnectedClientIsForgottenAndCounted() {
    SseProbe client = SseProbe.open(server, "/v1/events?topic=a");
    Awaitility.await("subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
        .until(() -> server.gauge("tickwheel.push.subscribers", "sse") == 1);
    server.fire("a");
    client.next("fired");
    assertThat(server.counter("tickwheel.push.firings.delivered", "sse")).isEqualTo(1);

    client.close();

    Awaitility.await("the subscriber is gone").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
        .until(() -> server.subscribers() == 0);
    server.fire("a");
    assertThat(server.counter("tickwheel.push.firings.delivered", "sse")).isEqualTo(1);
  }

  @Test
  void closingTheHubEndsTheStreamAndRefusesNewOnesWith503() {
    SseProbe client = SseProbe.open(server, "/v1/events");
    Awaitility.await("subscribed").atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5))
        .until(() -> server.subscribers() == 1);

    server.call(() -> server.hub.close());

    client.awaitEnd();
    assertThat(server.subscribers()).isZero();
    try (SseProbe late = SseProbe.open(server, "/v1/events")) {
      assertThat(late.status()).isEqualTo(503);
    }
    client.close();
  }
}
