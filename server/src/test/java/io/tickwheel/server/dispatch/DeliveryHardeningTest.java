package io.tickwheel.server.dispatch;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.core.callback.WebhookSigner;
import io.tickwheel.core.delivery.Attempt;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.server.dispatch.GuardedResolver;
import io.tickwheel.server.metrics.DeliveryMetrics;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery service against what an attacker or an unlucky user can store: a callback URL the parser refuses (from
 * an older version), concurrent retries of one dead delivery, callbacks to thousands of names that do not exist. A
 * manual clock decides when attempts are due and how long a host has been idle; names resolve through a test lookup
 * ({@code good.*} to loopback, where a receiver answers 200; anything else does not exist), so no DNS is involved.
 */
class DeliveryHardeningTest {

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  GatedStore store;
  DeliveryService service;
  Receiver receiver;
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
  void setUp() throws Exception {
    ctx = vertx.getOrCreateContext();
    clock = new AtomicLong(System.currentTimeMillis());
    store = new GatedStore();
    receiver = new Receiver(vertx, Receiver.always(200));
    service = newService(DeliveryOptions.defaults());
  }

  @AfterEach
  void tearDown() throws Exception {
    on(ctx, () -> service.stop());
    receiver.close();
  }

  DeliveryService newService(DeliveryOptions opts) {
    GuardedResolver.Lookup lookup = host -> host.startsWith("good.")
        ? Future.succeededFuture(List.of(InetAddress.getLoopbackAddress()))
        : Future.failedFuture(new UnknownHostException(host + ": no such name (test lookup)"));
    GuardedResolver resolver = new GuardedResolver(vertx, new AddressPolicy(true, List.of()), lookup, 5000);
    Random r = new Random(7);
    return on(ctx, () -> Future.succeededFuture(new DeliveryService(vertx, ctx, store, clock::get, opts, resolver,
        new WebhookSigner(WebhookSecret.generate(new SecureRandom())),
        new DeliveryMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)), r::nextDouble, false)));
  }

  /** A timer with a callback to {@code url} fires now: the store records its pending delivery (not yet held). */
  Delivery record(String url, int maxAttempts) {
    // the longest attempt timeout: a cold JVM on a loaded machine may take seconds for its first HTTP exchange
    Callback cb = new Callback(url, Callback.MAX_TIMEOUT_MS, maxAttempts, Callback.NO_BACKOFF, Callback.NO_BACKOFF);
    Timer t = new Timer("t" + (++timerNo), "hooks", Kind.ONCE, 1000, 0, 0, Misfire.FIRE_ONCE, "{\"n\":1}",
        clock.get() - 1000, clock.get(), 0, 1).withExtras(new Timer.Extras(null, Timer.NO_END, 0, false, 0, cb));
    return on(ctx, () -> store.put(t).compose(v -> store.recordFirings(List.of(new FiringRequest(t.id(),
        t.generation(), t.firings(), true, t.nextDueAt(), clock.get(), null, t.nextDueAt(), cb))))
        .map(rs -> rs.get(0).delivery()));
  }

  /** {@link #record}, and the service takes the delivery (as from the fire loop). */
  Delivery fire(String url, int maxAttempts) {
    Delivery d = record(url, maxAttempts);
    on(ctx, () -> {
      service.accept(d);
      return Future.succeededFuture();
    });
    return d;
  }

  int drain() {
    return on(ctx, () -> Future.succeededFuture(service.drain()));
  }

  <T> T read(java.util.function.Supplier<T> onOwner) {
    return on(ctx, () -> Future.succeededFuture(onOwner.get()));
  }

  Delivery awaitStored(Delivery d, Predicate<Delivery> p) {
    Delivery[] last = new Delivery[1];
    try {
      Awaitility.await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(10))
          .until(() -> {
            last[0] = on(ctx, () -> store.getDelivery(d.seq()));
            return p.test(last[0]);
          });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("delivery " + d.id() + " is still " + last[0], e);
    }
    return last[0];
  }

  static Predicate<Delivery> in(DeliveryState s) {
    return d -> d.state() == s;
  }

  @Test
  void aStoredUrlTheParserRefusesIsDeadWithInvalidUrlAndTheDeliveriesBehindItAreStillSent() {
    Delivery bad = fire("http://a_b.example.com/hook", 8);
    Delivery good = fire("http://good.example:" + receiver.port + "/ok", 8);
    assertThat(read(() -> service.heldBytes())).isEqualTo(DeliveryService.weight(bad) + DeliveryService.weight(good));

    assertThat(drain()).as("both were due and handed out").isEqualTo(2);

    Delivery dead = awaitStored(bad, in(DeliveryState.DEAD));
    assertThat(dead.attempts()).singleElement().satisfies(a -> {
      assertThat(a.error()).isEqualTo(DeliveryService.INVALID_URL);
      assertThat(a.status()).isZero();
    });
    awaitStored(good, in(DeliveryState.SUCCEEDED));
    assertThat(receiver.got()).hasSize(1);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> read(() -> service.pending()) == 0);
    assertThat(read(() -> service.heldBytes())).as("every byte released").isZero();
  }

  @Test
  void aBadEntryLoadedAtRecoveryGoesDeadInsteadOfStayingPendingAndARetryOfItReleasesItsBytesAgain() {
    Delivery bad = record("http://a_b.example.com/hook", 8);   // written by an older version that took it
    Delivery good = record("http://good.example:" + receiver.port + "/ok", 8);
    assertThat(on(ctx, () -> service.recover())).isEqualTo(2L);
    drain();
    awaitStored(bad, in(DeliveryState.DEAD));
    awaitStored(good, in(DeliveryState.SUCCEEDED));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> read(() -> service.heldBytes()) == 0);

    assertThat(on(ctx, () -> service.retry(bad.id()))).isInstanceOf(DeliveryOutcome.Requeued.class);
    assertThat(read(() -> service.heldBytes())).isEqualTo(DeliveryService.weight(bad));
    drain();
    Delivery again = awaitStored(bad, d -> d.state() == DeliveryState.DEAD && d.attempts().size() == 2);
    assertThat(again.attempts()).extracting(Attempt::error).containsOnly(DeliveryService.INVALID_URL);
    assertThat(read(() -> service.heldBytes())).isZero();
    assertThat(read(() -> service.pending())).isZero();
  }

  @Test
  void aThousandConcurrentRetriesOfOneDeadDeliveryRequeueItOnceAndHoldItsBytesOnce() {
    Delivery d = record("http://good.example:" + receiver.port + "/ok", 1);
    Delivery dead = d.after(new Attempt(1, clock.get(), 500, null, 1), DeliveryState.DEAD, 0, clock.get());
    assertThat(on(ctx, () -> store.updateDelivery(dead))).isTrue();

    // every retry reads the delivery dead before any of their writes lands, as over the network to Redis
    List<Future<DeliveryOutcome>> retries = on(ctx, () -> {
      store.holdDeliveryUpdates(true);
      List<Future<DeliveryOutcome>> fs = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        fs.add(service.retry(d.id()));
      }
      return Future.succeededFuture(fs);
    });
    assertThat(read(() -> store.heldCount())).as("writes in flight").isEqualTo(1000);
    on(ctx, () -> {
      store.holdDeliveryUpdates(false);
      store.release();
      return Future.join(retries).mapEmpty();
    });

    List<DeliveryOutcome> outcomes = retries.stream().map(Future::result).toList();
    assertThat(outcomes).filteredOn(o -> o instanceof DeliveryOutcome.Requeued).hasSize(1);
    assertThat(outcomes).filteredOn(o -> o instanceof DeliveryOutcome.NotDead n && n.state().equals("pending"))
        .hasSize(999);
    assertThat(read(() -> service.heldBytes())).as("the delivery budget holds it once")
        .isEqualTo(DeliveryService.weight(d));
    assertThat(read(() -> service.pending())).isEqualTo(1);
    assertThat(on(ctx, () -> store.getDelivery(d.seq())).state()).isEqualTo(DeliveryState.PENDING);
  }

  @Test
  void idleHostsAreForgottenAfterTheBreakerTimeSoFailuresToManyNamesDoNotGrowTheHostMap() {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withBreaker(1, 30_000));
    List<Delivery> ds = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ds.add(fire("https://nx" + i + ".example/hook", 1));
    }
    assertThat(drain()).isEqualTo(200);
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> on(ctx,
        () -> store.countDeliveries(DeliveryState.DEAD)) == 200);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> read(() -> service.pending()) == 0);
    assertThat(on(ctx, () -> store.getDelivery(ds.get(0).seq())).attempts().get(0).error()).isEqualTo("dns_error");
    assertThat(read(() -> service.hostsRemembered())).as("each failed host remembered while its breaker is open")
        .isEqualTo(200);
    assertThat(read(() -> service.openBreakers())).isEqualTo(200);

    clock.addAndGet(29_999);
    drain();
    assertThat(read(() -> service.hostsRemembered())).as("idle for less than the breaker time").isEqualTo(200);
    clock.addAndGet(1);
    drain();
    assertThat(read(() -> service.hostsRemembered())).as("idle for the breaker time: forgotten").isZero();
    assertThat(read(() -> service.openBreakers())).isZero();
    assertThat(read(() -> service.heldBytes())).isZero();
  }

  @Test
  void beyondMaxIdleHostsTheLongestIdleAreForgottenAtOnce() {
    on(ctx, () -> service.stop());
    service = newService(DeliveryOptions.defaults().withMaxIdleHosts(50));
    for (int i = 0; i < 200; i++) {
      fire("http://nx" + i + ".example/hook", 1);
    }
    drain();
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> on(ctx,
        () -> store.countDeliveries(DeliveryState.DEAD)) == 200);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> read(() -> service.pending()) == 0);
    assertThat(read(() -> service.hostsRemembered())).isEqualTo(50);
  }
}
