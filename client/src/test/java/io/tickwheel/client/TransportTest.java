package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.client.impl.ClientImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's transport against a scripted WebSocket and batch touch peer over a real socket: pipelining and ref
 * matching, the in-flight and queue bounds, retries after a dropped connection, timeouts, touch batching (coalescing,
 * per-item answers, caps, retries), and a subscription
 * resuming after a close. The same operations against the real server jar: {@code TickwheelClientIT}.
 */
class TransportTest {

  private Vertx vertx;
  private ScriptedServer server;
  private TickwheelClient client;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    server = new ScriptedServer(vertx);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (client != null) {
      await(client.close());
    }
    server.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private TickwheelClient client(TickwheelClientOptions o) {
    client = TickwheelClient.create(vertx, o.setEndpoint(server.url()));
    return client;
  }

  /** The longest any condition here is waited for. */
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static TickwheelException failure(Future<?> f) throws Exception {
    try {
      await(f);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TickwheelException.class);
      return (TickwheelException) e.getCause();
    }
    throw new AssertionError("expected a failure, the future succeeded");
  }

  private static TimerRequest timer(String id) {
    return TimerRequest.builder().id(id).delayMs(60_000).build();
  }

  @Test
  void pipelined_commands_are_matched_to_their_answers_by_ref_when_answered_in_reverse_order() throws Exception {
    List<JsonObject> held = new CopyOnWriteArrayList<>();
    server.onMessage = (ws, c, m) -> {
      held.add(m);
      if (held.size() == 5) {
        for (int i = 4; i >= 0; i--) {
          ws.writeTextMessage(ScriptedServer.ok(held.get(i), 201, i).encode());
        }
      }
    };
    client(new TickwheelClientOptions());
    List<Future<TimerInfo>> fs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      fs.add(client.put(timer("t" + i)));
    }
    for (int i = 0; i < 5; i++) {
      assertThat(await(fs.get(i)).id()).isEqualTo("t" + i);
    }
    assertThat(server.received).extracting(m -> m.getString("op")).containsOnly("put");
    assertThat(server.received).extracting(m -> m.getString("ref")).doesNotHaveDuplicates();
    assertThat(server.connections.get()).isEqualTo(1);
  }

  @Test
  void never_more_commands_unanswered_than_max_in_flight() throws Exception {
    AtomicInteger unanswered = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    server.onMessage = (ws, c, m) -> {
      most.accumulateAndGet(unanswered.incrementAndGet(), Math::max);
      vertx.setTimer(2, t -> {
        unanswered.decrementAndGet();
        ws.writeTextMessage(ScriptedServer.ok(m, 201, 0).encode());
      });
    };
    client(new TickwheelClientOptions().setMaxInFlight(4));
    List<Future<TimerInfo>> fs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      fs.add(client.put(timer("t" + i)));
    }
    await(Future.all(fs));
    assertThat(most.get()).isBetween(1, 4);
    assertThat(server.received).hasSize(200);
  }

  @Test
  void a_call_beyond_max_in_flight_plus_max_queued_fails_at_once_with_queue_full_not_applied() throws Exception {
    server.onMessage = (ws, c, m) -> {}; // never answers
    client(new TickwheelClientOptions().setMaxInFlight(1).setMaxQueued(2).setRequestTimeoutMs(60_000));
    List<Future<TimerInfo>> fs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      fs.add(client.put(timer("t" + i)));
    }
    long start = System.nanoTime();
    TickwheelException e = failure(fs.get(5));
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
    assertThat(e.code()).isEqualTo(TickwheelException.QUEUE_FULL);
    assertThat(e.status()).isZero();
    assertThat(e.mayHaveApplied()).isFalse();
    assertThat(e.getMessage()).contains("maxInFlight 1").contains("maxQueued 2");
    assertThat(client.inFlight() + client.queued()).isLessThanOrEqualTo(3);
  }

  @Test
  void after_a_dropped_connection_put_and_cancel_are_written_again() throws Exception {
    server.onMessage = (ws, c, m) -> {
      if (c == 1) {
        if (server.received.size() == 2) {
          ws.close(); // both in flight, none answered
        }
        return;
      }
      int status = "cancel".equals(m.getString("op")) ? 204 : 201;
      JsonObject r = ScriptedServer.ok(m, status, 0);
      if (status == 204) {
        r.remove("timer");
      }
      ws.writeTextMessage(r.encode());
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    Future<TimerInfo> put = client.put(timer("p"));
    Future<Void> cancel = client.cancel("c");
    assertThat(await(put).id()).isEqualTo("p");
    await(cancel);
    assertThat(server.connections.get()).isEqualTo(2);
    List<String> second = new ArrayList<>();
    for (JsonObject m : server.received.subList(2, server.received.size())) {
      second.add(m.getString("op") + " " + (m.containsKey("id") ? m.getString("id")
          : m.getJsonObject("timer").getString("id")));
    }
    assertThat(second).containsExactly("put p", "cancel c");
  }

  @Test
  void a_batch_create_sent_without_answer_fails_its_schedules_may_have_applied_and_is_never_sent_again()
      throws Exception {
    server.onCreate = (req, body) -> {
      boolean cut = body.getJsonArray("timers").stream()
          .anyMatch(t -> ((JsonObject) t).getString("id").startsWith("a"));
      if (cut) {
        req.connection().close();       // sent, never answered
      } else {
        req.response().setStatusCode(200).end(ScriptedServer.created(body).encode());
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10).setToken("s3cret"));
    List<Future<TimerInfo>> cut = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cut.add(client.schedule(timer("a" + i)));
    }
    for (Future<TimerInfo> f : cut) {
      TickwheelException e = failure(f);
      assertThat(e.code()).isIn(TickwheelException.CONNECTION_LOST, TickwheelException.TIMEOUT);
      assertThat(e.mayHaveApplied()).isTrue();
    }
    assertThat(await(client.schedule(timer("b"))).id()).isEqualTo("b");
    java.util.Map<String, Integer> sent = new java.util.HashMap<>();
    for (JsonObject body : server.creates) {
      body.getJsonArray("timers").forEach(t -> sent.merge(((JsonObject) t).getString("id"), 1, Integer::sum));
    }
    assertThat(sent).containsOnlyKeys("a0", "a1", "a2", "a3", "a4", "b");
    assertThat(sent.values()).as("each schedule sent once").containsOnly(1);
    assertThat(server.authorizations).contains("http Bearer s3cret");
  }

  @Test
  void a_schedule_made_while_batches_are_in_flight_waits_until_half_of_those_outstanding_can_go_together()
      throws Exception {
    List<Runnable> held = new CopyOnWriteArrayList<>();
    server.onCreate = (req, body) -> held.add(() -> req.response().setStatusCode(200)
        .end(ScriptedServer.created(body).encode()));
    client(new TickwheelClientOptions());
    ClientImpl impl = (ClientImpl) client;
    List<Future<TimerInfo>> all = new ArrayList<>();
    all.add(client.schedule(timer("a")));
    Awaitility.await("a sent at once: nothing in flight").atMost(WAIT).until(() -> server.creates.size() == 1);
    all.add(client.schedule(timer("b")));
    Awaitility.await("b sent: one is half of the two outstanding").atMost(WAIT).until(() -> server.creates.size() == 2);
    all.add(client.schedule(timer("c")));
    Awaitility.await("c waits: 1 of 3 outstanding").atMost(WAIT).until(() -> impl.queued() == 1);
    all.add(client.schedule(timer("d")));
    Awaitility.await("c and d sent together").atMost(WAIT).until(() -> server.creates.size() == 3);
    for (String id : List.of("e", "f", "g")) {
      all.add(client.schedule(timer(id)));
      int waiting = all.size() - 4;
      Awaitility.await(id + " waits").atMost(WAIT).until(() -> impl.queued() == waiting);
    }
    all.add(client.schedule(timer("h")));
    Awaitility.await("e to h sent together").atMost(WAIT).until(() -> server.creates.size() == 4);
    held.forEach(Runnable::run);

    for (int i = 0; i < all.size(); i++) {
      assertThat(await(all.get(i)).id()).isEqualTo(String.valueOf((char) ('a' + i)));
    }
    assertThat(server.creates).extracting(b -> b.getJsonArray("timers").size()).containsExactly(1, 1, 2, 4);
  }

  @Test
  void a_batch_create_whose_items_fail_fails_each_caller_with_its_own_error_and_a_whole_refusal_fails_all()
      throws Exception {
    server.onCreate = (req, body) -> {
      JsonArray results = new JsonArray();
      JsonArray timers = body.getJsonArray("timers");
      if (timers.getJsonObject(0).getString("id").equals("full")) {
        req.response().setStatusCode(429).end(new JsonObject().put("error", new JsonObject()
            .put("code", "resource_exhausted").put("message", "the server holds its maximum")).encode());
        return;
      }
      for (Object t : timers) {
        String id = ((JsonObject) t).getString("id");
        results.add(id.startsWith("dup") ? new JsonObject().put("status", 409).put("error", new JsonObject()
            .put("code", "already_exists").put("message", "a timer with id " + id + " already exists").put("field", "id"))
            : new JsonObject().put("status", 201).put("timer", ((JsonObject) t).copy().put("nextDueAt", 1L)
                .put("firings", 0).put("createdAt", 1L)));
      }
      req.response().setStatusCode(200).end(new JsonObject().put("results", results).encode());
    };
    client(new TickwheelClientOptions());
    Future<TimerInfo> ok = client.schedule(timer("ok"));
    Future<TimerInfo> dup = client.schedule(timer("dup"));
    assertThat(await(ok).id()).isEqualTo("ok");
    TickwheelException e = failure(dup);
    assertThat(e.status()).isEqualTo(409);
    assertThat(e.code()).isEqualTo("already_exists");
    assertThat(e.field()).isEqualTo("id");
    TickwheelException full = failure(client.schedule(timer("full")));
    assertThat(full.status()).isEqualTo(429);
    assertThat(full.code()).isEqualTo("resource_exhausted");
  }

  @Test
  void a_command_without_answer_fails_with_timeout_after_the_request_timeout() throws Exception {
    server.onMessage = (ws, c, m) -> {
      if ("warm".equals(m.getJsonObject("timer").getString("id"))) {
        ws.writeTextMessage(ScriptedServer.ok(m, 201, 0).encode());
      }
    };
    client(new TickwheelClientOptions().setRequestTimeoutMs(300));
    for (int i = 0; i < 50; i++) { // until connected (a cold JVM may take longer than 300 ms to connect)
      if (client.put(timer("warm")).toCompletionStage().toCompletableFuture().handle((v, t) -> t == null)
          .get(10, TimeUnit.SECONDS)) {
        break;
      }
    }
    long start = System.nanoTime();
    TickwheelException e = failure(client.put(timer("x")));
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(e.code()).isEqualTo(TickwheelException.TIMEOUT);
    assertThat(e.mayHaveApplied()).isTrue();
    assertThat(tookMs).isBetween(250L, 5_000L);
    assertThat(client.inFlight()).isZero();
  }

  /** Holds the first batch touch request until the test releases it; answers the others at once. */
  private List<Runnable> holdFirstBatch() {
    List<Runnable> held = new CopyOnWriteArrayList<>();
    server.onBatch = (req, body) -> {
      Runnable answer = () -> req.response().setStatusCode(200).end(server.touched(body, id -> id.startsWith("gone")
          ? 404 : id.startsWith("busy") ? 503 : 200).encode());
      if (server.batches.size() == 1) {
        held.add(answer);
      } else {
        answer.run();
      }
    };
    return held;
  }

  @Test
  void touches_made_while_a_batch_is_in_flight_go_together_in_the_next_batch_per_delay_and_each_caller_gets_its_item()
      throws Exception {
    List<Runnable> held = holdFirstBatch();
    client(new TickwheelClientOptions().setMaxTouchBatchesInFlight(1));
    Future<Long> first = client.touch("x", 5_000);
    Awaitility.await("the first batch arrived").atMost(WAIT).until(() -> !held.isEmpty());
    Future<Long> a = client.touch("a", 5_000);
    Future<Long> gone = client.touch("gone-b", 5_000);
    Future<Long> busy = client.touch("busy-c", 5_000);
    Future<Long> own = client.touch("d");
    held.get(0).run();

    assertThat(await(first)).isEqualTo(1L);
    assertThat(await(a)).as("nextDueAt of its item in the second batch").isEqualTo(2L);
    TickwheelException notFound = failure(gone);
    assertThat(notFound.status()).isEqualTo(404);
    assertThat(notFound.code()).isEqualTo("not_found");
    assertThat(notFound.getMessage()).contains("gone-b");
    TickwheelException unavailable = failure(busy);
    assertThat(unavailable.status()).isEqualTo(503);
    assertThat(unavailable.code()).isEqualTo("unavailable");
    assertThat(unavailable.mayHaveApplied()).isFalse();
    assertThat(await(own)).isEqualTo(3L);
    assertThat(server.batches).hasSize(3);
    assertThat(server.batches.get(1)).isEqualTo(new JsonObject()
        .put("ids", new JsonArray().add("a").add("gone-b").add("busy-c")).put("delayMs", 5_000));
    assertThat(server.batches.get(2)).as("the timer's own delay: no delayMs")
        .isEqualTo(new JsonObject().put("ids", new JsonArray().add("d")));
    assertThat(server.received).as("no touch over the WebSocket").isEmpty();
  }

  @Test
  void touches_of_one_id_while_it_is_in_flight_become_one_follow_up_that_answers_every_later_caller()
      throws Exception {
    List<Runnable> held = holdFirstBatch();
    client(new TickwheelClientOptions());
    Future<Long> first = client.touch("k");
    Awaitility.await("the first batch arrived").atMost(WAIT).until(() -> !held.isEmpty());
    List<Future<Long>> later = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      later.add(client.touch("k"));
    }
    Future<Long> otherDelay = client.touch("k", 10);
    assertThat(await(otherDelay)).as("another delay is another key: not held back").isEqualTo(2L);
    assertThat(later).allMatch(f -> !f.isComplete());
    held.get(0).run();

    assertThat(await(first)).isEqualTo(1L);
    for (Future<Long> f : later) {
      assertThat(await(f)).as("answered by the follow-up, sent after the call").isEqualTo(3L);
    }
    assertThat(server.batches).extracting(b -> b.getJsonArray("ids").size()).containsExactly(1, 1, 1);
    assertThat(((ClientImpl) client).mergedTouches()).isEqualTo(49);
  }

  @Test
  void a_batch_holds_at_most_max_touch_batch_ids_and_touches_beyond_max_queued_fail_at_once_not_applied()
      throws Exception {
    List<Runnable> held = holdFirstBatch();
    client(new TickwheelClientOptions().setMaxTouchBatchesInFlight(1).setMaxTouchBatchIds(3).setMaxQueued(7));
    Future<Long> first = client.touch("x");
    Awaitility.await("the first batch arrived").atMost(WAIT).until(() -> !held.isEmpty());
    List<Future<Long>> waiting = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      waiting.add(client.touch("id-" + i));
    }
    TickwheelException full = failure(client.touch("id-7"));
    assertThat(full.code()).isEqualTo(TickwheelException.QUEUE_FULL);
    assertThat(full.mayHaveApplied()).isFalse();
    assertThat(full.getMessage()).contains("maxQueued 7");
    held.get(0).run();

    await(first);
    await(Future.all(waiting));
    assertThat(server.batches).extracting(b -> b.getJsonArray("ids").size()).containsExactly(1, 3, 3, 1);
  }

  @Test
  void a_batch_touch_without_answer_is_sent_again_after_the_backoff_and_answers_its_callers() throws Exception {
    server.onBatch = (req, body) -> {
      if (server.batches.size() == 1) {
        req.connection().close(); // no answer: the client cannot know whether it was applied
      } else {
        req.response().setStatusCode(200).end(server.touched(body, id -> 200).encode());
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    assertThat(await(client.touch("k", 5_000))).isEqualTo(2L);
    assertThat(server.batches).hasSize(2);
    assertThat(server.batches.get(1)).isEqualTo(server.batches.get(0));
  }

  /** Sends an answer's head and part of its body, never its end: only a deadline on the whole exchange ends it. */
  private static void headOnly(io.vertx.core.http.HttpServerRequest req) {
    req.response().setStatusCode(200).setChunked(true).write("{\"id\":");
  }

  /** never: the request gets no byte back; head: its answer stops after the head (only a whole-answer deadline ends it). */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"never", "head"})
  void a_batch_touch_without_a_whole_answer_past_the_request_timeout_fails_with_timeout_may_have_applied(
      String answered) throws Exception {
    server.onBatch = (req, body) -> {
      if (answered.equals("head")) {
        headOnly(req);
      }
    };
    client(new TickwheelClientOptions().setRequestTimeoutMs(300));
    assertThat(timedOutAfter300Ms(client.touch("k")).mayHaveApplied()).isTrue();
    assertThat(client.inFlight()).isZero();
  }

  /** The failure of {@code f}: {@code timeout}, after about the 300 ms request timeout the test set. */
  private static TickwheelException timedOutAfter300Ms(Future<?> f) throws Exception {
    long start = System.nanoTime();
    TickwheelException e = failure(f);
    assertThat(e.code()).isEqualTo(TickwheelException.TIMEOUT);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(250L, 5_000L);
    return e;
  }

  @Test
  void a_batch_create_whose_answer_stops_after_its_head_fails_with_timeout_may_have_applied() throws Exception {
    server.onCreate = (req, body) -> headOnly(req);
    client(new TickwheelClientOptions().setRequestTimeoutMs(300));
    TickwheelException e = failure(client.schedule(timer("s")));
    assertThat(e.code()).isEqualTo(TickwheelException.TIMEOUT);
    assertThat(e.mayHaveApplied()).isTrue();
    assertThat(server.creates).hasSize(1);
  }

  @Test
  void a_read_or_action_whose_answer_stops_after_its_head_fails_with_timeout_after_the_request_timeout()
      throws Exception {
    server.onOther = TransportTest::headOnly;
    client(new TickwheelClientOptions().setRequestTimeoutMs(300));
    assertThat(timedOutAfter300Ms(client.get("g")).mayHaveApplied()).isFalse();
    assertThat(timedOutAfter300Ms(client.pause("g")).mayHaveApplied()).isTrue();
  }

  @Test
  void reads_beyond_the_connection_pool_wait_for_a_connection_no_longer_than_the_request_timeout() throws Exception {
    List<io.vertx.core.http.HttpServerRequest> held = new CopyOnWriteArrayList<>();
    server.onOther = req -> { // answered up to its head only: each holds one of the 8 pooled connections
      held.add(req);
      headOnly(req);
    };
    client(new TickwheelClientOptions().setRequestTimeoutMs(500));
    List<Future<TimerInfo>> reads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      reads.add(client.get("r" + i));
    }
    long start = System.nanoTime();
    for (Future<TimerInfo> r : reads) {
      assertThat(failure(r).code()).isEqualTo(TickwheelException.TIMEOUT);
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000L);
    assertThat(held).as("requests that held a pooled connection (the pool was full)").hasSizeGreaterThanOrEqualTo(8);
  }

  @Test
  void an_error_result_becomes_a_tickwheel_exception_with_status_code_field_and_message() throws Exception {
    server.onMessage = (ws, c, m) -> ws.writeTextMessage(new JsonObject().put("type", "result")
        .put("ref", m.getString("ref")).put("status", 400).put("error", new JsonObject()
            .put("code", "invalid_argument").put("message", "delayMs must be >= 0, was -5")
            .put("field", "timer.delayMs")).encode());
    client(new TickwheelClientOptions());
    TickwheelException e = failure(client.put(TimerRequest.builder().id("e").delayMs(-5).build()));
    assertThat(e.status()).isEqualTo(400);
    assertThat(e.code()).isEqualTo("invalid_argument");
    assertThat(e.field()).isEqualTo("delayMs");   // the TimerRequest's field, not its place in the command message
    assertThat(e.getMessage()).isEqualTo("delayMs must be >= 0, was -5");
    assertThat(e.mayHaveApplied()).isFalse();
  }

  @Test
  void the_token_goes_in_the_authorization_header_of_the_websocket() throws Exception {
    server.onMessage = (ws, c, m) -> ws.writeTextMessage(ScriptedServer.ok(m, 201, 0).encode());
    client(new TickwheelClientOptions().setToken("s3cret"));
    await(client.put(timer("a")));
    assertThat(server.authorizations).containsExactly("Bearer s3cret");
  }

  @Test
  void a_subscription_resumes_after_a_close_from_its_last_seq_and_delivers_each_firing_once_in_order()
      throws Exception {
    server.onMessage = (ws, c, m) -> {
      if (!"subscribe".equals(m.getString("op"))) {
        return;
      }
      if (c == 1) {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("*"))
            .put("seq", 0).encode());
        for (int s = 1; s <= 5; s++) {
          ws.writeTextMessage(fired(s).encode());
        }
        ws.close((short) 1013, "subscriber too slow, resume with from");
      } else {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("*"))
            .put("seq", 8).encode());
        for (int s = 4; s <= 8; s++) { // 4 and 5 again: a server that replays from an older point
          ws.writeTextMessage(fired(s).encode());
        }
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    List<Long> seqs = new CopyOnWriteArrayList<>();
    Subscription sub = client.subscribe(List.of("*"), null, f -> seqs.add(f.seq()));
    await(sub.subscribed());
    // 8 is the last firing the server sends: once it is handed out, everything sent before it was handled
    Awaitility.await("the last firing sent").atMost(WAIT).until(() -> seqs.contains(8L));
    assertThat(seqs).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(server.received.get(0).containsKey("from")).isFalse();
    assertThat(server.received.get(1).getLong("from")).isEqualTo(5L);
    assertThat(sub.reconnects()).isEqualTo(1);
    await(sub.close());
  }

  @Test
  void a_cluster_subscription_resumes_by_the_cursor_of_the_last_firing_it_handed_out() throws Exception {
    server.onMessage = (ws, c, m) -> {
      if (!"subscribe".equals(m.getString("op"))) {
        return;
      }
      if (c == 1) {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("*"))
            .put("cursor", "cLIVE").encode());
        ws.writeTextMessage(fired(7).put("partition", 3).put("cursor", "cP3S7").encode());
        ws.writeTextMessage(fired(2).put("partition", 1).put("cursor", "cP1S2").encode());
        ws.close((short) 1013, "subscriber too slow, resume with from");
      } else {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("*"))
            .put("cursor", "cNEXT").encode());
        ws.writeTextMessage(fired(8).put("partition", 3).put("cursor", "cP3S8").encode());
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    List<String> cursors = new CopyOnWriteArrayList<>();
    Subscription sub = client.subscribe(List.of("*"), null, f -> cursors.add(f.cursor()));
    await(sub.subscribed());
    // cP3S8 is the last firing the server sends: once it is handed out, everything sent before it was handled
    Awaitility.await("the last firing sent").atMost(WAIT).until(() -> cursors.contains("cP3S8"));
    assertThat(cursors).containsExactly("cP3S7", "cP1S2", "cP3S8");
    assertThat(server.received.get(0).containsKey("from")).isFalse();
    assertThat(server.received.get(1).getValue("from")).as("a per-partition seq never resumes").isEqualTo("cP1S2");
    assertThat(sub.lastCursor()).isEqualTo("cP3S8");
    await(sub.close());
  }

  @Test
  void before_any_firing_a_live_subscription_resumes_from_the_cursor_of_the_subscribed_answer() throws Exception {
    server.onMessage = (ws, c, m) -> {
      if ("subscribe".equals(m.getString("op"))) {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("a"))
            .put("cursor", "cSTART").encode());
        if (c == 1) {
          ws.close((short) 1001, "server shutting down");
        }
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    Subscription sub = client.subscribe(List.of("a"), null, f -> { });
    await(sub.subscribed());
    Awaitility.await("the second subscribe").atMost(WAIT)
        .until(() -> server.received.stream().filter(m -> "subscribe".equals(m.getString("op"))).count() >= 2);
    List<JsonObject> subscribes = server.received.stream().filter(m -> "subscribe".equals(m.getString("op"))).toList();
    assertThat(subscribes).hasSizeGreaterThanOrEqualTo(2);
    assertThat(subscribes.get(1).getValue("from")).isEqualTo("cSTART");
    await(sub.close());
  }

  @Test
  void a_gap_notice_keeps_the_subscription_open_and_the_retained_firings_that_follow_are_delivered() throws Exception {
    server.onMessage = (ws, c, m) -> {
      if ("subscribe".equals(m.getString("op"))) {
        ws.writeTextMessage(new JsonObject().put("type", "subscribed").put("topics", new JsonArray().add("*"))
            .put("seq", 30).put("cursor", "30").encode());
        ws.writeTextMessage(new JsonObject().put("type", "error").put("code", "gap").put("from", 1).put("to", 25)
            .put("message", "firings 1..25 were trimmed").encode());
        for (int s = 26; s <= 30; s++) {
          ws.writeTextMessage(fired(s).put("cursor", Long.toString(s)).encode());
        }
      }
    };
    client(new TickwheelClientOptions().setReconnectInitialBackoffMs(10));
    List<Long> seqs = new CopyOnWriteArrayList<>();
    Subscription sub = client.subscribe(List.of("*"), 0L, f -> seqs.add(f.seq()));
    await(sub.subscribed());
    // 30 is the last firing the server sends: once it is handed out, everything sent before it was handled
    Awaitility.await("the last firing sent").atMost(WAIT).until(() -> seqs.contains(30L));
    assertThat(seqs).containsExactly(26L, 27L, 28L, 29L, 30L);
    assertThat(sub.reconnects()).isZero();
    assertThat(sub.lastCursor()).isEqualTo("30");
    await(sub.close());
  }

  private static JsonObject fired(long seq) {
    return new JsonObject().put("type", "fired").put("seq", seq).put("id", "t" + seq).put("topic", "a")
        .put("firing", 1).put("dueAt", 1000 + seq).put("firedAt", 1001 + seq);
  }

  @Test
  void close_fails_queued_calls_with_client_closed_not_applied() throws Exception {
    server.onMessage = (ws, c, m) -> {};
    client(new TickwheelClientOptions().setMaxInFlight(1));
    Future<TimerInfo> a = client.put(timer("a"));
    Future<TimerInfo> b = client.put(timer("b"));
    Awaitility.await("the first command reached the server").atMost(WAIT).until(() -> !server.received.isEmpty());
    await(client.close());
    TickwheelException ea = failure(a);
    TickwheelException eb = failure(b);
    assertThat(ea.code()).isEqualTo(TickwheelException.CLIENT_CLOSED);
    assertThat(ea.mayHaveApplied()).isTrue();
    assertThat(eb.code()).isEqualTo(TickwheelException.CLIENT_CLOSED);
    assertThat(eb.mayHaveApplied()).isFalse();
    assertThat(failure(client.put(timer("c"))).code()).isEqualTo(TickwheelException.CLIENT_CLOSED);
  }

  @Test
  void the_completion_stage_view_completes_as_the_future_does() throws Exception {
    server.onMessage = (ws, c, m) -> ws.writeTextMessage(ScriptedServer.ok(m, 201, 0).encode());
    client(new TickwheelClientOptions());
    assertThat(client.stages().schedule(timer("z")).toCompletableFuture().get(10, TimeUnit.SECONDS).id())
        .isEqualTo("z");
    try {
      client.stages().put(TimerRequest.builder().build()).toCompletableFuture().join();
      throw new AssertionError("put without id must fail");
    } catch (CompletionException e) {
      assertThat(((TickwheelException) e.getCause()).field()).isEqualTo("id");
    }
  }
}
