package io.tickwheel.server.dispatch;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import com.standardwebhooks.Webhook;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.delivery.RetrySchedule;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.store.DeliveryTable;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.dispatch.GuardedResolver;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.lang.reflect.Proxy;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery service against real receivers on loopback, with a manual clock deciding when attempts are due (the
 * retry waits of seconds to hours pass at once) and real time only for the HTTP exchanges themselves.
 */
class DeliveryServiceTest {

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  MemoryTimerStore store;
  WebhookSecret secret;
  DeliveryService service;
  PrometheusMeterRegistry registry;
  List<Receiver> receivers = new ArrayList<>();
  long seed = 7;
  int timerNo;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @BeforeEach
  void setUp() {
    ctx = vertx.getOrCreateContext();
    // near real time: the official verifier refuses timestamps more than 5 minutes away
    clock = new AtomicLong(System.currentTimeMillis());
    store = new MemoryTimerStore();
    secret = WebhookSecret.generate(new SecureRandom());
    service = newService(DeliveryOptions.defaults(), new AddressPolicy(true, List.of()));
  }

  DeliveryService newService(DeliveryOptions opts, AddressPolicy policy) {
    return newService(opts, policy, false);
  }

  /** @param autoWake whether the service sets its own timers (wake-ups, the periodic trim) */
  DeliveryService newService(DeliveryOptions opts, AddressPolicy policy, boolean autoWake) {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Random r = new Random(seed);
    return on(ctx, () -> Future.succeededFuture(new DeliveryService(vertx, ctx, store, clock::get, opts,
        GuardedResolver.of(vertx, policy), new WebhookSigner(secret), new DeliveryMetrics(registry), r::nextDouble,
        autoWake)));
  }

  @AfterEach
  void tearDown() throws Exception {
    on(ctx, () -> service.stop());
    for (Receiver r : receivers) {
      r.close();
    }
  }

  Receiver receiver(java.util.function.BiConsumer<io.vertx.core.http.HttpServerRequest, Integer> answer)
      throws Exception {
    Receiver r = new Receiver(vertx, answer);
    receivers.add(r);
    return r;
  }

  /** A timer with {@code cb} fires now: the store records its delivery, which the service takes. */
  Delivery fire(Callback cb) {
    Timer t = new Timer("t" + (++timerNo), "hooks", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE,
        "{\"n\":\"" + "x".repeat(1000) + "\"}",
        clock.get() - 1000, clock.get(), 0, 1).withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
    return on(ctx, () -> store.put(t).compose(v -> store.recordFirings(List.of(new FiringRequest(t.id(),
        t.generation(), t.firings(), true, t.nextDueAt(), clock.get(), null, t.nextDueAt(), cb))))
        .map(rs -> {
          Delivery d = rs.get(0).delivery();
          service.accept(d);
          return d;
        }));
  }

  int drain() {
    return on(ctx, () -> Future.succeededFuture(service.drain()));
  }

  Delivery stored(Delivery d) {
    return on(ctx, () -> store.getDelivery(d.seq()));
  }

  /** Waits (real time, at most 15 s) until the stored delivery satisfies {@code p}. */
  Delivery await(Delivery d, Predicate<Delivery> p) {
    AtomicReference<Delivery> now = new AtomicReference<>();
    Awaitility.await("delivery " + d.id()).atMost(Duration.ofSeconds(15)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
          now.set(stored(d));
          assertThat(p.test(now.get())).as("delivery %s, now %s", d.id(), now.get()).isTrue();
        });
    return now.get();
  }

  static Predicate<Delivery> attempts(int n) {
    return d -> d.attempts().size() >= n && (d.state() != DeliveryState.PENDING || d.nextAttemptAt() > 0);
  }

  static Callback cb(String url, int maxAttempts) {
    return new Callback(url, 2000, maxAttempts, Callback.NO_BACKOFF, Callback.NO_BACKOFF);
  }

  void verifySignature(Receiver.Got g) {
    Webhook verifier = new Webhook(secret.text());
    java.util.Map<String, List<String>> h = new java.util.HashMap<>();
    for (String k : List.of(WebhookSigner.ID, WebhookSigner.TIMESTAMP, WebhookSigner.SIGNATURE)) {
      h.put(k, List.of(g.header(k)));
    }
    assertThatNoException().isThrownBy(() -> verifier.verify(g.body(), h));
  }

  @Test
  void aTrimTrimsTheLanesOneAfterTheOtherAndTriesEveryLaneWhenOneFails() {
    int[] inFlight = {0};
    int[] maxInFlight = {0};
    List<Integer> trimmed = new ArrayList<>();
    List<DeliveryLane> lanes = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      int partition = p;
      MemoryTimerStore lane = new MemoryTimerStore();
      DeliveryTable slow = (DeliveryTable) Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {DeliveryTable.class},
              (proxy, m, args) -> {
                if (!m.getName().equals("trimDeliveries")) {
                  return m.invoke(lane, args);
                }
                maxInFlight[0] = Math.max(maxInFlight[0], ++inFlight[0]);
                Promise<Long> done = Promise.promise();
                vertx.setTimer(5, id -> {
                  inFlight[0]--;
                  trimmed.add(partition);
                  if (partition == 1) {
                    done.fail(new IllegalStateException("lane 1 is down"));
                  } else {
                    done.complete(1L);
                  }
                });
                return done.future();
              });
      lanes.add(new DeliveryLane(p, slow, () -> true));
    }
    for (DeliveryLane l : lanes) {
      on(ctx, () -> service.recover(l));
    }
    AtomicReference<Throwable> failed = new AtomicReference<>();
    on(ctx, () -> service.trim().recover(e -> {
      failed.set(e);
      return Future.succeededFuture(-1L);
    }));
    assertThat(failed.get()).hasMessage("lane 1 is down");
    assertThat(trimmed).containsExactly(0, 1, 2, 3);
    assertThat(maxInFlight[0]).as("lanes trimmed at once").isEqualTo(1);
  }

  @Test
  void aPeriodicTrimStillRunningWhenTheNextPeriodComesMakesThatPeriodSkipItsOwn() {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withTrimIntervalMs(2), new AddressPolicy(true, List.of()), true);
    // lane 0 trims at once; lane 1 holds its first trim until released: a periodic trim is lane 0 then lane 1
    AtomicLong firstLaneTrims = new AtomicLong();
    List<Promise<Long>> held = new ArrayList<>();
    List<DeliveryLane> lanes = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      int partition = p;
      MemoryTimerStore lane = new MemoryTimerStore();
      DeliveryTable table = (DeliveryTable) Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {DeliveryTable.class}, (proxy, m, args) -> {
            if (!m.getName().equals("trimDeliveries")) {
              return m.invoke(lane, args);
            }
            if (partition == 0) {
              firstLaneTrims.incrementAndGet();
              return Future.succeededFuture(0L);
            }
            if (held.isEmpty()) {
              Promise<Long> p1 = Promise.promise();
              held.add(p1);
              return p1.future();
            }
            return Future.succeededFuture(0L);
          });
      lanes.add(new DeliveryLane(p, table, () -> true));
    }
    // both lanes join in one task, before the trim timer (started by the first lane's recovery) can run
    on(ctx, () -> {
      service.recover(lanes.get(0));
      return service.recover(lanes.get(1));
    });
    Awaitility.await("the first periodic trim reaches lane 1").atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(5)).until(() -> on(ctx, () -> Future.succeededFuture(held.size())) == 1);
    // a timer due 50 ms from now on the same event loop runs after every period due before it (about 25 of them)
    on(ctx, () -> {
      Promise<Void> later = Promise.promise();
      vertx.setTimer(50, id -> later.complete());
      return later.future();
    });
    assertThat(firstLaneTrims.get()).as("trims started while the first one ran").isEqualTo(1);
    on(ctx, () -> {
      held.get(0).complete(0L);
      return Future.succeededFuture();
    });
    Awaitility.await("a period after the trim ended trims again").atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(5)).until(() -> firstLaneTrims.get() >= 2);
  }

  @Test
  void fiveHundredThenTwoHundredIsTwoSignedAttemptsWithOneWebhookIdFiveSecondsApartWithinJitter() throws Exception {
    Receiver r = receiver((req, n) -> req.response().setStatusCode(n == 1 ? 500 : 200).end());
    Delivery d = fire(cb(r.url("/hook?a=1"), 8));
    assertThat(drain()).isEqualTo(1);
    Delivery after1 = await(d, attempts(1));
    assertThat(after1.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(after1.attempts().get(0).status()).isEqualTo(500);
    long expectedWait = RetrySchedule.jittered(5000, new Random(seed).nextDouble());
    long firstEnd = after1.updatedAt();
    assertThat(after1.nextAttemptAt()).isEqualTo(firstEnd + expectedWait);
    assertThat(after1.nextAttemptAt() - firstEnd).isBetween(4000L, 6000L);

    clock.set(after1.nextAttemptAt() - 1);
    assertThat(drain()).as("not due a millisecond early").isZero();
    clock.set(after1.nextAttemptAt());
    assertThat(drain()).isEqualTo(1);
    Delivery done = await(d, x -> x.state() == DeliveryState.SUCCEEDED);
    assertThat(done.attempts()).extracting(Attempt::n).containsExactly(1, 2);
    assertThat(done.attempts().get(1).status()).isEqualTo(200);
    assertThat(done.attempts().get(1).at() - done.attempts().get(0).at()).isBetween(4000L, 6000L);

    List<Receiver.Got> got = r.got();
    assertThat(got).hasSize(2);
    assertThat(got).extracting(g -> g.header("webhook-id")).containsOnly(d.id());
    assertThat(got.get(0).body()).isEqualTo(TimerJson.firingJson(d.firing()));
    assertThat(got.get(0).header("content-type")).isEqualTo("application/json");
    got.forEach(this::verifySignature);
    assertThat(Long.parseLong(got.get(1).header("webhook-timestamp"))
        - Long.parseLong(got.get(0).header("webhook-timestamp"))).as("each attempt has its own timestamp")
        .isBetween(4L, 6L);
  }

  @Test
  void retryAfterOnFourTwentyNineIsHonouredExactly() throws Exception {
    Receiver r = receiver((req, n) -> req.response().setStatusCode(429).putHeader("Retry-After", "120").end());
    Delivery d = fire(cb(r.url("/"), 8));
    drain();
    Delivery after = await(d, attempts(1));
    assertThat(after.nextAttemptAt()).isEqualTo(after.updatedAt() + 120_000);
  }

  @Test
  void fourTenIsDeadAfterOneAttempt() throws Exception {
    Receiver r = receiver(Receiver.always(410));
    Delivery d = fire(cb(r.url("/"), 8));
    drain();
    Delivery after = await(d, x -> x.state() == DeliveryState.DEAD);
    assertThat(after.attempts()).hasSize(1);
    assertThat(after.attempts().get(0).status()).isEqualTo(410);
    assertThat(r.got()).hasSize(1);
  }

  @Test
  void aRedirectIsAFailureAndNeverFollowed() throws Exception {
    Receiver target = receiver(Receiver.always(200));
    Receiver r = receiver((req, n) -> req.response().setStatusCode(302).putHeader("Location", target.url("/x")).end());
    Delivery d = fire(cb(r.url("/"), 8));
    drain();
    Delivery after = await(d, attempts(1));
    assertThat(after.state()).isEqualTo(DeliveryState.PENDING);
    assertThat(after.attempts().get(0).status()).isEqualTo(302);
    // a negative check, so time is what it checks: nothing reaches the redirect's target for 200 ms after
    Awaitility.await("the redirect's target sees nothing").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1))
        .until(() -> target.got().isEmpty());
  }

  @Test
  void aReceiverThatNeverAnswersFailsWithTimeoutAfterTimeoutMs() throws Exception {
    Receiver r = receiver(Receiver.hang());
    Delivery d = fire(new Callback(r.url("/"), 1000, 8, Callback.NO_BACKOFF, Callback.NO_BACKOFF));
    long t0 = System.nanoTime();
    drain();
    Delivery after = await(d, attempts(1));
    long tookMs = (System.nanoTime() - t0) / 1_000_000;
    assertThat(after.attempts().get(0).error()).isEqualTo("timeout");
    assertThat(after.attempts().get(0).durationMs()).isBetween(900L, 1500L);
    assertThat(tookMs).isBetween(900L, 3000L);
  }

  @Test
  void aReceiverThatTricklesOneByteAtATimeIsCutOffAtTimeoutMs() throws Exception {
    Receiver r = receiver((req, n) -> {
      req.response().setChunked(true).setStatusCode(200).write("x");
      long id = vertx.setPeriodic(300, t -> req.response().write("x"));
      req.connection().closeHandler(v -> vertx.cancelTimer(id));
    });
    Delivery d = fire(new Callback(r.url("/"), 1000, 8, Callback.NO_BACKOFF, Callback.NO_BACKOFF));
    drain();
    Delivery after = await(d, attempts(1));
    assertThat(after.attempts().get(0).status()).as("no full answer: no status").isZero();
    assertThat(after.attempts().get(0).error()).isEqualTo("timeout");
    assertThat(after.attempts().get(0).durationMs()).isBetween(900L, 1500L);
  }

  @Test
  void aReceiverThatAlwaysFailsIsDeadAfterMaxAttemptsAndARetryRequeuesItWithTheSameId() throws Exception {
    Receiver r = receiver(Receiver.always(503));
    Delivery d = fire(new Callback(r.url("/"), 2000, 3, 100, 200));
    for (int i = 1; i <= 3; i++) {
      Delivery now = stored(d);
      clock.set(Math.max(clock.get(), now.nextAttemptAt()));
      assertThat(drain()).isEqualTo(1);
      await(d, attempts(i));
    }
    Delivery dead = stored(d);
    assertThat(dead.state()).isEqualTo(DeliveryState.DEAD);
    assertThat(dead.attempts()).extracting(Attempt::n).containsExactly(1, 2, 3);
    assertThat(dead.attempts().get(2).at() - dead.attempts().get(1).at()).as("second retry: 200 ms ±20 %")
        .isBetween(160L, 240L + 50);

    DeliveryOutcome o = on(ctx, () -> service.retry(d.id()));
    assertThat(o).isInstanceOf(DeliveryOutcome.Requeued.class);
    assertThat(on(ctx, () -> service.retry(d.id()))).as("pending now: not dead")
        .isInstanceOf(DeliveryOutcome.NotDead.class);
    assertThat(drain()).isEqualTo(1);
    Delivery again = await(d, attempts(4));
    assertThat(again.attempts()).extracting(Attempt::n).containsExactly(1, 2, 3, 4);
    assertThat(again.state()).as("a new round of 3").isEqualTo(DeliveryState.PENDING);
    assertThat(r.got()).extracting(g -> g.header("webhook-id")).containsOnly(d.id());
    assertThat(on(ctx, () -> service.retry("msg_999999"))).isInstanceOf(DeliveryOutcome.NotFound.class);
    assertThat(on(ctx, () -> service.retry("nonsense"))).isInstanceOf(DeliveryOutcome.NotFound.class);
  }

  @Test
  void aLoopbackReceiverIsABlockedAddressUnderTheStrictPolicyAndTheDeliveryIsDead() throws Exception {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults(), AddressPolicy.STRICT);
    Receiver r = receiver(Receiver.always(200));
    Delivery d = fire(cb("http://localhost:" + r.port + "/", 8));
    drain();
    Delivery after = await(d, x -> x.state() == DeliveryState.DEAD);
    assertThat(after.attempts().get(0).error()).isEqualTo("blocked_address");
    assertThat(r.got()).isEmpty();
  }

  @Test
  void theAttemptConnectsToTheAddressTheGuardCheckedWithTheNameAsHostHeader() throws Exception {
    on(ctx, () -> service.stop());
    List<String> looked = java.util.Collections.synchronizedList(new ArrayList<>());
    GuardedResolver guard = new GuardedResolver(vertx, new AddressPolicy(true, List.of()), host -> {
      looked.add(host);
      return Future.succeededFuture(List.of(java.net.InetAddress.getLoopbackAddress()));
    }, 1000);
    Random rnd = new Random(seed);
    service = on(ctx, () -> Future.succeededFuture(new DeliveryService(vertx, ctx, store, clock::get,
        DeliveryOptions.defaults(), guard, new WebhookSigner(secret),
        new DeliveryMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)), rnd::nextDouble, false)));
    Receiver r = receiver(Receiver.always(200));
    // a name no DNS knows: only the injected lookup can answer it
    Delivery d = fire(cb("http://hooks.tickwheel.invalid:" + r.port + "/x", 8));
    drain();
    assertThat(await(d, x -> x.state() == DeliveryState.SUCCEEDED).attempts()).hasSize(1);
    assertThat(looked).containsExactly("hooks.tickwheel.invalid");
    assertThat(r.got().get(0).header("host")).isEqualTo("hooks.tickwheel.invalid:" + r.port);
  }

  @Test
  void anOpenBreakerPostponesAttemptsWithoutUsingThemUp() throws Exception {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withBreaker(2, 60_000), new AddressPolicy(true, List.of()));
    Receiver r = receiver(Receiver.always(500));
    Delivery a = fire(cb(r.url("/a"), 1)); // one attempt each: dead, out of the way
    Delivery b = fire(cb(r.url("/b"), 1));
    drain();
    await(a, attempts(1));
    await(b, attempts(1));
    Delivery c = fire(cb(r.url("/c"), 8));
    assertThat(drain()).isEqualTo(1);
    // a negative check, so time is what it checks: no attempt of c is made or recorded for 300 ms
    Awaitility.await("c postponed, not attempted").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
        .until(() -> stored(c).attempts().isEmpty() && r.got().size() == 2);
    assertThat(r.got()).hasSize(2);
    assertThat(on(ctx, () -> Future.succeededFuture(service.openBreakers()))).isEqualTo(1);
    assertThat(registry.scrape()).contains("tickwheel_delivery_postponed_total{reason=\"breaker_open\"} 1.0");
    // after the open time, one trial goes through
    clock.addAndGet(60_000);
    assertThat(drain()).as("due at the end of the open time").isEqualTo(1);
    Delivery tried = await(c, attempts(1));
    assertThat(tried.attempts()).extracting(Attempt::n).containsExactly(1);
  }

  @Test
  void beyondTheHostQueueAttemptsArePostponedNotUsedUp() throws Exception {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withPerHost(1, 1), new AddressPolicy(true, List.of()));
    Receiver r = receiver(Receiver.hang());
    Callback slow = new Callback(r.url("/"), 1000, 8, Callback.NO_BACKOFF, Callback.NO_BACKOFF);
    Delivery a = fire(slow);
    Delivery b = fire(slow);
    Delivery c = fire(slow);
    assertThat(drain()).isEqualTo(3); // a in flight, b queued, c postponed
    assertThat(registry.scrape()).contains("tickwheel_delivery_postponed_total{reason=\"host_queue_full\"} 1.0");
    await(a, attempts(1));
    await(b, attempts(1));
    assertThat(stored(c).attempts()).isEmpty();
    assertThat(on(ctx, () -> Future.succeededFuture(service.pending()))).isEqualTo(3);
  }

  @Test
  void beyondMaxPendingADeliveryIsDeadWithQueueFullAndCanBeRetriedWhenThereIsRoom() throws Exception {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withMaxPending(1), new AddressPolicy(true, List.of()));
    Receiver r = receiver(Receiver.always(200));
    Delivery a = fire(cb(r.url("/"), 8));
    Delivery b = fire(cb(r.url("/"), 8));
    Delivery full = await(b, x -> x.state() == DeliveryState.DEAD);
    assertThat(full.attempts().get(0).error()).isEqualTo("queue_full");
    assertThat(on(ctx, () -> service.retry(b.id()))).isInstanceOf(DeliveryOutcome.Full.class);
    drain();
    await(a, x -> x.state() == DeliveryState.SUCCEEDED);
    assertThat(on(ctx, () -> service.retry(b.id()))).isInstanceOf(DeliveryOutcome.Requeued.class);
    drain();
    assertThat(await(b, x -> x.state() == DeliveryState.SUCCEEDED).attempts()).hasSize(2);
  }

  @Test
  void beyondTheHeldBytesADeliveryIsDeadWithQueueFull() throws Exception {
    on(ctx, () -> service.stop());
    // room for one delivery of a 1 KiB payload (1,024 + 2 x its characters), not two
    service = newService(DeliveryOptions.defaults().withMaxPendingBytes(4000), new AddressPolicy(true, List.of()));
    Receiver r = receiver(Receiver.always(200));
    Delivery a = fire(cb(r.url("/"), 8));
    Delivery b = fire(cb(r.url("/"), 8));
    assertThat(stored(a).state()).isEqualTo(DeliveryState.PENDING);
    assertThat(await(b, x -> x.state() == DeliveryState.DEAD).attempts().get(0).error()).isEqualTo("queue_full");
  }

  @Test
  void aHangingReceiverDoesNotDelayAnotherOnesDeliveries() throws Exception {
    Receiver hanging = receiver(Receiver.hang());
    Receiver fast = receiver(Receiver.always(204));
    Callback slow = new Callback(hanging.url("/"), 5000, 8, Callback.NO_BACKOFF, Callback.NO_BACKOFF);
    for (int i = 0; i < 100; i++) {
      fire(slow);
    }
    List<Delivery> quick = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      quick.add(fire(cb(fast.url("/"), 8)));
    }
    long t0 = System.nanoTime();
    drain();
    for (Delivery q : quick) {
      await(q, x -> x.state() == DeliveryState.SUCCEEDED);
    }
    long tookMs = (System.nanoTime() - t0) / 1_000_000;
    assertThat(tookMs).as("20 deliveries to the fast receiver beside 100 hanging ones").isLessThan(2000);
    assertThat(fast.got()).hasSize(20);
    assertThat(registry.scrape()).contains("tickwheel_delivery_attempts_total{outcome=\"2xx\"} 20.0");
  }

  @Test
  void recoveryTakesThePendingDeliveriesBackIntoTheWheel() throws Exception {
    Receiver r = receiver(Receiver.always(200));
    Delivery d = fire(cb(r.url("/"), 8));
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults(), new AddressPolicy(true, List.of()));
    assertThat(on(ctx, () -> service.recover())).isEqualTo(1);
    assertThat(drain()).isEqualTo(1);
    assertThat(await(d, x -> x.state() == DeliveryState.SUCCEEDED).attempts()).hasSize(1);
  }

  @Test
  void aLaneLostWithAnAttemptInFlightSettlesOnlyOnceTheAttemptsOutcomeIsRecorded() throws Exception {
    java.util.concurrent.CompletableFuture<io.vertx.core.http.HttpServerRequest> held =
        new java.util.concurrent.CompletableFuture<>();
    Receiver r = receiver((req, n) -> held.complete(req));
    java.util.concurrent.atomic.AtomicBoolean live = new java.util.concurrent.atomic.AtomicBoolean(true);
    DeliveryLane lane = new DeliveryLane(3, store, live::get);
    Callback cb = cb(r.url("/"), 8);
    Timer t = new Timer("lane-1", "hooks", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{}", clock.get() - 1000,
        clock.get(), 0, 1).withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
    Delivery d = on(ctx, () -> store.put(t).compose(v -> store.recordFirings(List.of(new FiringRequest(t.id(),
        t.generation(), t.firings(), true, t.nextDueAt(), clock.get(), null, t.nextDueAt(), cb))))
        .map(rs -> {
          Delivery x = rs.get(0).delivery();
          service.accept(x, lane);
          return x;
        }));
    assertThat(on(ctx, () -> Future.succeededFuture(service.settled(lane).isComplete())))
        .as("nothing under way: settled at once").isTrue();
    assertThat(drain()).isEqualTo(1);
    io.vertx.core.http.HttpServerRequest req = held.get(10, java.util.concurrent.TimeUnit.SECONDS);
    // the partition is handed over while the receiver holds the attempt
    live.set(false);
    AtomicReference<DeliveryState> recordedAtSettle = new AtomicReference<>();
    Future<Void> settled = on(ctx, () -> Future.succeededFuture(service.settled(lane).onSuccess(v ->
        recordedAtSettle.set(store.getDelivery(d.seq()).result().state()))));
    assertThat(settled.isComplete()).as("an attempt in flight").isFalse();
    assertThat(stored(d).state()).isEqualTo(DeliveryState.PENDING);
    req.response().setStatusCode(200).end();
    Awaitility.await("settled").atMost(Duration.ofSeconds(10)).until(settled::isComplete);
    assertThat(recordedAtSettle.get()).as("the outcome recorded before the lane settled")
        .isEqualTo(DeliveryState.SUCCEEDED);
    assertThat(stored(d).attempts()).extracting(Attempt::status).containsExactly(200);
    assertThat(r.got()).extracting(g -> g.header("webhook-id")).containsExactly(Delivery.idOf(3, d.seq()));
  }
}
