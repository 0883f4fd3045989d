package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.ApiException;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scheduler with a manual clock and an in-memory store: exact ticks, no real time (except the retry backoff of
 * the store-failure test).
 */
@ExtendWith(BlockedThreadGuard.class)
class SchedulerTest {

  static final long TICK = 10;
  static final long T0 = 1_000_000_000L;     // a multiple of the tick

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  GatedStore store;
  Scheduler scheduler;
  List<Firing> fired;
  TimerParser parser = new TimerParser(Limits.defaults(TICK));

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
    clock = new AtomicLong(T0);
    store = new GatedStore();
    fired = java.util.Collections.synchronizedList(new ArrayList<>());
    scheduler = newScheduler(Scheduler.Options.defaults(TICK).withDrive(false));
    on(ctx, () -> scheduler.recover());
  }

  Scheduler newScheduler(Scheduler.Options opts) {
    Scheduler s = new Scheduler(vertx, ctx, store, clock::get, opts, new Metrics());
    s.onFiring(fired::add);
    return s;
  }

  TimerSpec spec(String json) {
    return parser.parse(new JsonObject(json), clock.get());
  }

  Timer create(String json) {
    return on(ctx, () -> scheduler.create(spec(json)));
  }

  int drainAt(long t) {
    clock.set(t);
    return on(ctx, () -> scheduler.drain());
  }

  Timer stored(String id) {
    return on(ctx, () -> store.get(id));
  }

  @Test
  void aStoreThatKeepsTimersOffTheHeapGetsAPayloadLessCopyInTheWheel() {
    Timer t = create("{\"id\":\"a\",\"delayMs\":1000,\"payload\":{\"x\":1}}");
    Timer inWheel = on(ctx, () -> Future.succeededFuture(scheduler.wheel().get("a")));
    assertThat(inWheel.payload()).isNull();
    assertThat(inWheel).isEqualTo(t.withoutPayload());
  }

  @Test
  void theMemoryStoreSharesItsTimerObjectWithTheWheelAfterCreateAndTouchAndFiringsStillCarryThePayload() {
    MemoryTimerStore mem = new MemoryTimerStore();
    Scheduler s = new Scheduler(vertx, ctx, mem, clock::get, Scheduler.Options.defaults(TICK).withDrive(false),
        new Metrics());
    s.onFiring(fired::add);
    on(ctx, s::recover);
    on(ctx, () -> s.create(spec("{\"id\":\"m\",\"delayMs\":1000,\"payload\":{\"x\":2}}")));
    Timer inWheel = on(ctx, () -> Future.succeededFuture(s.wheel().get("m")));
    assertThat(inWheel).isSameAs(on(ctx, () -> mem.get("m")));
    on(ctx, () -> s.touch("m", 500L));
    Timer touched = on(ctx, () -> Future.succeededFuture(s.wheel().get("m")));
    assertThat(touched).isNotSameAs(inWheel).isSameAs(on(ctx, () -> mem.get("m")));
    clock.set(T0 + 500);
    on(ctx, s::drain);
    assertThat(fired).extracting(Firing::id, Firing::payload).containsExactly(org.assertj.core.groups.Tuple.tuple("m", "{\"x\":2}"));
    assertThat(s.pending()).isZero();
  }

  @Test
  void oneShotFiresAtTheStartOfItsTickNeverBefore() {
    create("{\"id\":\"a\",\"delayMs\":95,\"payload\":{\"x\":1}}");
    drainAt(T0 + 94);
    assertThat(fired).isEmpty();
    drainAt(T0 + 99);
    assertThat(fired).isEmpty();
    drainAt(T0 + 100);
    assertThat(fired).hasSize(1);
    Firing f = fired.get(0);
    assertThat(f.id()).isEqualTo("a");
    assertThat(f.seq()).isEqualTo(1);
    assertThat(f.firing()).isEqualTo(1);
    assertThat(f.dueAt()).isEqualTo(T0 + 95);
    assertThat(f.firedAt()).isEqualTo(T0 + 100);
    assertThat(f.payload()).isEqualTo("{\"x\":1}");
    assertThat(scheduler.pending()).isZero();
    assertThat(stored("a")).isNull();
    drainAt(T0 + 10_000);
    assertThat(fired).hasSize(1);
  }

  @Test
  void fixedRateKeepsItsGridWithoutDriftOverManyPeriods() {
    create("{\"id\":\"r\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    for (long t = T0; t <= T0 + 20_050; t += 37) {
      drainAt(t);
    }
    assertThat(fired).hasSize(200);
    for (int n = 0; n < 200; n++) {
      Firing f = fired.get(n);
      assertThat(f.dueAt()).isEqualTo(T0 + 100L * (n + 1));
      assertThat(f.firing()).isEqualTo(n + 1);
      assertThat(f.firedAt() - f.dueAt()).isBetween(0L, 37L + TICK);
    }
    assertThat(stored("r").nextDueAt()).isEqualTo(T0 + 100 * 201);
  }

  @Test
  void fixedDelayCountsItsPeriodFromTheActualFiring() {
    create("{\"id\":\"d\",\"kind\":\"fixed-delay\",\"periodMs\":100}");
    drainAt(T0 + 130);                       // due T0+100, fires late at T0+130
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100);
    assertThat(stored("d").nextDueAt()).isEqualTo(T0 + 230);
    drainAt(T0 + 229);
    assertThat(fired).hasSize(1);
    drainAt(T0 + 230);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100, T0 + 230);
    assertThat(stored("d").nextDueAt()).isEqualTo(T0 + 330);
  }

  @Test
  void maxFiringsEndsTheTimerAfterItsLastFiring() {
    create("{\"id\":\"m\",\"kind\":\"fixed-rate\",\"periodMs\":100,\"maxFirings\":3}");
    for (long t = T0; t <= T0 + 1000; t += 10) {
      drainAt(t);
    }
    assertThat(fired).extracting(Firing::firing).containsExactly(1L, 2L, 3L);
    assertThat(scheduler.pending()).isZero();
    assertThat(stored("m")).isNull();
  }

  @Test
  void touchingAgainAndAgainKeepsATimerFromFiringUntilTouchesStop() {
    create("{\"id\":\"hb\",\"delayMs\":100}");
    long t = T0;
    for (int i = 0; i < 50; i++) {
      t += 60;
      drainAt(t);
      Timer touched = on(ctx, () -> scheduler.touch("hb", null));
      assertThat(touched.nextDueAt()).isEqualTo(t + 100);
      assertThat(touched.generation()).isEqualTo(i + 2);
    }
    assertThat(fired).isEmpty();
    long lastTouch = t;
    drainAt(lastTouch + 99);
    assertThat(fired).isEmpty();
    drainAt(lastTouch + 100);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(lastTouch + 100);
  }

  @Test
  void touchWithADelayOverrideAppliesToThatCountdownOnly() {
    create("{\"id\":\"o\",\"delayMs\":100}");
    Timer t = on(ctx, () -> scheduler.touch("o", 1000L));
    assertThat(t.nextDueAt()).isEqualTo(T0 + 1000);
    assertThat(t.delayMs()).isEqualTo(100);
    assertThat(on(ctx, () -> scheduler.touch("missing", null))).isNull();
  }

  @Test
  void cancelBeforeDueMeansItNeverFires() {
    create("{\"id\":\"c\",\"delayMs\":100}");
    assertThat(on(ctx, () -> scheduler.cancel("c"))).isTrue();
    assertThat(on(ctx, () -> scheduler.cancel("c"))).isFalse();
    drainAt(T0 + 10_000);
    assertThat(fired).isEmpty();
    assertThat(stored("c")).isNull();
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void upsertReplacesThePendingDueTimeAndTheOldOneNeverFires() {
    create("{\"id\":\"u\",\"delayMs\":100}");
    Scheduler.Upsert up = on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":500}").withId("u")));
    assertThat(up.created()).isFalse();
    assertThat(up.timer().generation()).isEqualTo(2);
    drainAt(T0 + 100);
    assertThat(fired).isEmpty();
    drainAt(T0 + 500);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 500);
    Scheduler.Upsert created = on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":5}").withId("new")));
    assertThat(created.created()).isTrue();
    assertThat(created.timer().generation()).isEqualTo(1);
  }

  @Test
  void createOfAnExistingIdIsRefusedWith409() {
    create("{\"id\":\"dup\",\"delayMs\":100}");
    assertThatThrownBy(() -> create("{\"id\":\"dup\",\"delayMs\":100}"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
  }

  @Test
  void concurrentCreatesOfOneIdGiveExactlyOneSuccessAndOne409() {
    store.holdPuts(true);
    List<Object> outcomes = on(ctx, () -> {
      Future<Timer> a = scheduler.create(spec("{\"id\":\"same\",\"delayMs\":100}"));
      Future<Timer> b = scheduler.create(spec("{\"id\":\"same\",\"delayMs\":200}"));
      assertThat(b.failed()).isTrue();        // refused at once: the id is reserved before the store write
      store.release();
      return Future.join(a, b).otherwiseEmpty().map(v -> List.<Object>of(a.result(), b.cause()));
    });
    assertThat(outcomes.get(0)).isInstanceOf(Timer.class);
    assertThat(((ApiException) outcomes.get(1)).status()).isEqualTo(409);
  }

  @Test
  void createsBeyondMaxPendingAreRefusedWith429() {
    scheduler = newScheduler(Scheduler.Options.defaults(TICK).withDrive(false).withMaxPending(3));
    on(ctx, () -> scheduler.recover());
    create("{\"id\":\"p1\",\"delayMs\":100}");
    create("{\"id\":\"p2\",\"delayMs\":100}");
    create("{\"id\":\"p3\",\"delayMs\":100}");
    assertThatThrownBy(() -> create("{\"id\":\"p4\",\"delayMs\":100}"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(429));
    assertThatThrownBy(() -> on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":100}").withId("p5"))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(429));
    // replacing an existing one does not add a timer
    assertThat(on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":300}").withId("p1"))).created()).isFalse();
    List<Object> batch = on(ctx, () -> scheduler.createAll(List.of(spec("{\"delayMs\":1}"))));
    assertThat(((ApiException) batch.get(0)).status()).isEqualTo(429);
  }

  @Test
  void aHundredThousandTimersDueInOneTickFireExactlyOnceOverBoundedTurns() {
    for (int b = 0; b < 10; b++) {
      List<TimerSpec> specs = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        specs.add(spec("{\"id\":\"t" + (b * 10_000 + i) + "\",\"delayMs\":50}"));
      }
      List<Object> out = on(ctx, () -> scheduler.createAll(specs));
      assertThat(out).allMatch(o -> o instanceof Timer);
    }
    assertThat(scheduler.pending()).isEqualTo(100_000);
    int handed = drainAt(T0 + 50);
    assertThat(handed).isEqualTo(100_000);
    assertThat(fired).hasSize(100_000);
    Set<String> ids = new HashSet<>();
    long seq = 0;
    for (Firing f : fired) {
      assertThat(f.seq()).isEqualTo(++seq);
      ids.add(f.id());
    }
    assertThat(ids).hasSize(100_000);
    assertThat(store.recordCalls.get()).isGreaterThanOrEqualTo(10);
    assertThat(store.largestRecordBatch.get()).isLessThanOrEqualTo(10_000);
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void cancelArrivingWhileAFiringIsInFlightWaitsForItAndTheTimerNeverFiresAgain() {
    create("{\"id\":\"f\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    store.holdFirings(true);
    clock.set(T0 + 100);
    List<Boolean> cancelled = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();       // the batch is held by the store
      assertThat(drained.isComplete()).isFalse();
      scheduler.cancel("f").onSuccess(cancelled::add);
      assertThat(cancelled).isEmpty();                   // waits for the firing to settle
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(cancelled).containsExactly(true);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100);
    for (long t = T0 + 100; t <= T0 + 2000; t += 50) {
      drainAt(t);
    }
    assertThat(fired).hasSize(1);
    assertThat(stored("f")).isNull();
  }

  @Test
  void cancelOfAOnceTimerWhoseFiringIsInFlightAnswersNotFoundAfterTheFiring() {
    create("{\"id\":\"o1\",\"delayMs\":10}");
    store.holdFirings(true);
    clock.set(T0 + 10);
    List<Boolean> cancelled = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();
      scheduler.cancel("o1").onSuccess(cancelled::add);
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(fired).hasSize(1);
    assertThat(cancelled).containsExactly(false);
  }

  @Test
  void replaceArrivingWhileAFiringIsInFlightTakesOverAfterItAndTheOldGridNeverFiresAgain() {
    create("{\"id\":\"g\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    store.holdFirings(true);
    clock.set(T0 + 100);
    List<Scheduler.Upsert> ups = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();
      scheduler.upsert(spec("{\"delayMs\":1000}").withId("g")).onSuccess(ups::add);
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(ups).hasSize(1);
    assertThat(ups.get(0).timer().generation()).isEqualTo(2);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100);
    for (long t = T0 + 100; t < T0 + 1100; t += 10) {
      drainAt(t);
    }
    assertThat(fired).hasSize(1);
    drainAt(T0 + 1100);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100, T0 + 1100);
  }

  @Test
  void aFailingStoreDelaysFiringsButNeverDropsThem() {
    create("{\"id\":\"s1\",\"delayMs\":10}");
    create("{\"id\":\"s2\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    store.failFirings(3);                               // retried after 50, 100, 200 ms of real time
    drainAt(T0 + 100);
    assertThat(store.recordCalls.get()).isEqualTo(4);
    assertThat(fired).extracting(Firing::id).containsExactlyInAnyOrder("s1", "s2");
    assertThat(scheduler.failedBatches()).isEqualTo(3);
    drainAt(T0 + 200);
    assertThat(fired).extracting(Firing::id).containsExactlyInAnyOrder("s1", "s2", "s2");
  }

  @Test
  void writesAnswer503AndKeepTheTimerWhenTheStoreIsDown() {
    create("{\"id\":\"k\",\"delayMs\":100}");
    store.down(true);
    assertThatThrownBy(() -> on(ctx, () -> scheduler.cancel("k")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
    assertThatThrownBy(() -> create("{\"id\":\"k2\",\"delayMs\":100}"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
    store.down(false);
    assertThat(scheduler.pending()).isEqualTo(1);
    drainAt(T0 + 100);
    assertThat(fired).extracting(Firing::id).containsExactly("k");
  }

  // ------------------------------------------------------------------ recovery

  Timer fixedRate(String id, long firstDue, long period, Misfire misfire) {
    return new Timer(id, "default", Kind.FIXED_RATE, period, period, 0, misfire, null, firstDue - period, firstDue, 0, 1);
  }

  void recoverWith(Timer... timers) {
    store = new GatedStore();
    for (Timer t : timers) {
      on(ctx, () -> store.put(t));
    }
    scheduler = newScheduler(Scheduler.Options.defaults(TICK).withDrive(false));
    long n = on(ctx, () -> scheduler.recover());
    assertThat(n).isEqualTo(timers.length);
  }

  @Test
  void recoveryFiresOverdueOnceTimersAtTheFirstTurn() {
    recoverWith(new Timer("late", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, "1", T0 - 5000, T0 - 4900, 0, 1),
        new Timer("later", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null, T0, T0 + 100, 0, 1));
    drainAt(T0);
    assertThat(fired).extracting(Firing::id).containsExactly("late");
    assertThat(fired.get(0).payload()).isEqualTo("1");
    drainAt(T0 + 100);
    assertThat(fired).extracting(Firing::id).containsExactly("late", "later");
  }

  @Test
  void recoveryAppliesFireOnceToMissedFixedRateDueTimes() {
    // due T0-10,000 with period 1,000: grid times T0-10,000 .. T0 missed (11 of them), now is T0+500
    recoverWith(fixedRate("fo", T0 - 10_000, 1000, Misfire.FIRE_ONCE));
    drainAt(T0 + 500);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0);
    assertThat(stored("fo").nextDueAt()).isEqualTo(T0 + 1000);
  }

  @Test
  void recoveryAppliesFireAllToMissedFixedRateDueTimes() {
    recoverWith(fixedRate("fa", T0 - 10_000, 1000, Misfire.FIRE_ALL));
    drainAt(T0 + 500);
    assertThat(fired).extracting(Firing::dueAt)
        .containsExactly(T0 - 10_000, T0 - 9000, T0 - 8000, T0 - 7000, T0 - 6000, T0 - 5000, T0 - 4000, T0 - 3000,
            T0 - 2000, T0 - 1000, T0);
    assertThat(stored("fa").nextDueAt()).isEqualTo(T0 + 1000);
  }

  @Test
  void recoveryAppliesSkipToMissedFixedRateDueTimes() {
    recoverWith(fixedRate("sk", T0 - 10_000, 1000, Misfire.SKIP));
    drainAt(T0 + 1500);       // latest missed grid time T0+1000 is 500 ms late: within the 1 s threshold, fires
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 1000);
    fired.clear();
    recoverWith(fixedRate("sk2", T0 - 10_000, 4000, Misfire.SKIP));
    drainAt(T0 + 3500);       // grid T0-10,000 .. T0+2,000 missed, the latest 1.5 s late: nothing fires
    assertThat(fired).isEmpty();
    assertThat(stored("sk2").nextDueAt()).isEqualTo(T0 + 6000);
  }

  @Test
  void writesAreRefusedWith503UntilRecoveryHasFinished() {
    Scheduler fresh = newScheduler(Scheduler.Options.defaults(TICK).withDrive(false));
    assertThat(fresh.ready()).isFalse();
    assertThatThrownBy(() -> on(ctx, () -> fresh.create(spec("{\"delayMs\":1}"))))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
  }
}
