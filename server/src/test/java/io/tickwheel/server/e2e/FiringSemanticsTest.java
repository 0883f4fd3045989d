package io.tickwheel.server.e2e;

import static io.vertx.core.http.HttpMethod.DELETE;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.e2e.Subscription.Received;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract's firing semantics end to end, in real time: timers created over HTTP against the server verticle
 * (memory store, 10 ms tick, the system clock), firings received over a real WebSocket. Real time: the tests assert
 * windows (never early; late by at most {@link #LATE_MS}), not instants.
 */
@ExtendWith(BlockedThreadGuard.class)
class FiringSemanticsTest {

  /** Lateness allowed on this shared, noisy machine: a tick plus generous scheduling noise. */
  static final long LATE_MS = 500;

  static Vertx vertx;
  ServerHarness s;
  Subscription sub;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void start() throws Exception {
    s = ServerHarness.start(vertx);
    sub = Subscription.open(s.url(), "*");
  }

  @AfterEach
  void stop() {
    sub.close();
    s.close();
  }

  private JsonObject create(String json) {
    var r = s.send(POST, "/v1/timers", json);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(201);
    return r.bodyAsJsonObject();
  }

  private static void assertOnTime(Received r) {
    assertThat(r.firedAt()).as("firedAt of " + r.firing()).isGreaterThanOrEqualTo(r.dueAt());
    assertThat(r.receivedAt()).as("received not before due: " + r.firing()).isGreaterThanOrEqualTo(r.dueAt());
    assertThat(r.firedAt() - r.dueAt()).as("lateness of " + r.firing()).isLessThanOrEqualTo(LATE_MS);
  }

  @Test
  void oneShotFiresOnceWithinAWindowAfterItsDueTimeWithItsPayload() throws Exception {
    JsonObject t = create("{\"id\":\"one\",\"topic\":\"e2e\",\"delayMs\":300,\"payload\":{\"k\":[1,2]}}");
    List<Received> got = sub.await(r -> r.id().equals("one"), 1, 5000);
    assertThat(got).hasSize(1);
    assertOnTime(got.get(0));
    assertThat(got.get(0).dueAt()).isEqualTo(t.getLong("nextDueAt"));
    assertThat(got.get(0).firing().getJsonObject("payload")).isEqualTo(new JsonObject().put("k", new JsonArray().add(1).add(2)));
    assertThat(got.get(0).firing().getLong("firing")).isEqualTo(1);
    // a negative check, so time is what it checks: no second firing for 300 ms after the first
    Awaitility.await("one fired once").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
        .until(() -> sub.of("one").size() == 1);
    assertThat(s.send(io.vertx.core.http.HttpMethod.GET, "/v1/timers/one").statusCode()).isEqualTo(404);
  }

  @Test
  void fixedRateKeepsItsGridWithoutDriftOverManyPeriods() throws Exception {
    JsonObject t = create("{\"id\":\"rate\",\"kind\":\"fixed-rate\",\"periodMs\":40,\"maxFirings\":40}");
    List<Received> got = sub.await(r -> r.id().equals("rate"), 40, 15_000);
    assertThat(got).hasSize(40);
    long start = t.getLong("nextDueAt");
    for (int n = 0; n < 40; n++) {
      Received r = got.get(n);
      assertThat(r.firing().getLong("firing")).isEqualTo(n + 1);
      assertThat(r.dueAt()).as("due time of firing " + (n + 1)).isEqualTo(start + n * 40L);
      assertOnTime(r);
    }
  }

  @Test
  void fixedDelayCountsEachPeriodFromTheActualFiring() throws Exception {
    create("{\"id\":\"delay\",\"kind\":\"fixed-delay\",\"periodMs\":50,\"maxFirings\":12}");
    List<Received> got = sub.await(r -> r.id().equals("delay"), 12, 15_000);
    assertThat(got).hasSize(12);
    for (int n = 1; n < 12; n++) {
      assertThat(got.get(n).dueAt()).isEqualTo(got.get(n - 1).firedAt() + 50);
      assertOnTime(got.get(n));
    }
  }

  @Test
  void aHeartbeatTouchedAgainAndAgainNeverFiresUntilTouchesStop() throws Exception {
    create("{\"id\":\"hb\",\"topic\":\"heartbeats\",\"delayMs\":1000}");
    long lastTouch = 0;
    for (int i = 0; i < 20; i++) {          // 2 s of keep-alives, every 100 ms, 2x the timeout
      Thread.sleep(100);                    // the heartbeat's interval: time is what this test drives
      var r = s.send(POST, "/v1/timers/hb/touch");
      assertThat(r.statusCode()).isEqualTo(200);
      lastTouch = System.currentTimeMillis();
    }
    assertThat(sub.of("hb")).as("no firing while touched").isEmpty();
    List<Received> got = sub.await(r -> r.id().equals("hb"), 1, 5000);
    assertThat(got).hasSize(1);
    assertOnTime(got.get(0));
    assertThat(got.get(0).dueAt()).isGreaterThanOrEqualTo(lastTouch + 1000 - 50);
  }

  @Test
  void aTimerCancelledBeforeItsDueTimeNeverFires() throws Exception {
    create("{\"id\":\"cancelled\",\"delayMs\":300}");
    create("{\"id\":\"witness\",\"delayMs\":600}");
    assertThat(s.send(DELETE, "/v1/timers/cancelled").statusCode()).isEqualTo(204);
    assertThat(sub.await(r -> r.id().equals("witness"), 1, 5000)).hasSize(1);
    assertThat(sub.of("cancelled")).isEmpty();
  }

  @Test
  void anUpsertReplacesThePendingDueTimeAndTheOldOneNeverFires() throws Exception {
    create("{\"id\":\"up\",\"delayMs\":200}");
    var r = s.send(PUT, "/v1/timers/up", "{\"delayMs\":700}");
    assertThat(r.statusCode()).isEqualTo(200);
    long newDue = r.bodyAsJsonObject().getLong("nextDueAt");
    List<Received> got = sub.await(f -> f.id().equals("up"), 1, 5000);
    assertThat(got).hasSize(1);
    assertThat(got.get(0).dueAt()).isEqualTo(newDue);
    assertOnTime(got.get(0));
    // a negative check, so time is what it checks: no second firing for 300 ms after the first
    Awaitility.await("up fired once").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
        .until(() -> sub.of("up").size() == 1);
  }

  @Test
  void aTurnsWorthOfTimersDueInTheSameMillisecondAllFireExactlyOnceToAFastSubscriber() throws Exception {
    // one fire-loop turn's worth (the default turn limit): a larger same-millisecond burst can outrun a subscriber's
    // queue (16,384 messages) and close it with 1013, as the contract allows (it resumes with from)
    int total = 10_000;
    // the bodies are built before the due time is chosen, so only sending them counts against the margin
    List<JsonObject> bodies = new ArrayList<>();
    for (int b = 0; b < total / 10_000; b++) {
      JsonArray timers = new JsonArray();
      for (int i = 0; i < 10_000; i++) {
        timers.add(new JsonObject().put("id", "burst-" + (b * 10_000 + i)).put("topic", "burst"));
      }
      bodies.add(new JsonObject().put("timers", timers));
    }
    long at = System.currentTimeMillis() + 6000;
    for (JsonObject body : bodies) {
      body.getJsonArray("timers").forEach(t -> ((JsonObject) t).put("at", at));
    }
    HttpResponse<Buffer> first = null;
    for (JsonObject body : bodies) {
      // sent without the harness's OpenAPI check: validating 10,000 results takes longer than the due time allows
      var r = TestVertx.await(s.request(POST, "/v1/timers/batch").sendJsonObject(body));
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.bodyAsJsonObject().getJsonArray("results").getJsonObject(9_999).getInteger("status")).isEqualTo(201);
      first = first == null ? r : first;
    }
    assertThat(System.currentTimeMillis()).as("the batches were accepted before the due time").isLessThan(at);
    s.checked(POST, "/v1/timers/batch", first);
    List<Received> got = sub.await(r -> r.id().startsWith("burst-"), total, 60_000);
    assertThat(sub.closeCode()).as("a subscriber that reads as fast as it can is not cut off").isEqualTo(-1);
    assertThat(got).hasSize(total);
    Set<String> ids = new HashSet<>();
    long prevSeq = 0;
    for (Received r : got) {
      assertThat(ids.add(r.id())).as("fired once: " + r.id()).isTrue();
      assertThat(r.seq()).as("seq order").isGreaterThan(prevSeq);
      prevSeq = r.seq();
      assertThat(r.dueAt()).isEqualTo(at);
      assertThat(r.firedAt()).isGreaterThanOrEqualTo(at);
      assertThat(r.receivedAt()).isGreaterThanOrEqualTo(at);
    }
    assertThat(got.get(total - 1).seq() - got.get(0).seq()).as("no seq skipped").isEqualTo(total - 1);
  }
}
