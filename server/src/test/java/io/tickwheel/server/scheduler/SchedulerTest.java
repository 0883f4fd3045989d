package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Refusal.CapacityExceeded;
import io.tickwheel.server.scheduler.Refusal.Conflict;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.Refusal.Recovering;
import io.tickwheel.server.scheduler.Refusal.StoreUnavailable;
import io.tickwheel.server.scheduler.WriteOutcome.Cancelled;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.scheduler.WriteOutcome.Replaced;
import io.tickwheel.server.scheduler.WriteOutcome.Touched;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
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
    scheduler = newScheduler(SchedulerOptions.defaults(TICK));
    on(ctx, () -> scheduler.recover());
  }

  /** A scheduler that does not drive itself: the tests turn it with {@code drain}. */
  Scheduler newScheduler(SchedulerOptions opts) {
    Scheduler s = new Scheduler(vertx, ctx, store, clock::get, opts, new Metrics(), false);
    s.onFiring(fired::add);
    return s;
  }

  TimerSpec spec(String json) {
    return parser.parse(new JsonObject(json), clock.get());
  }

  WriteOutcome write(String json) {
    return on(ctx, () -> scheduler.create(spec(json)));
  }

  Timer create(String json) {
    WriteOutcome o = write(json);
    assertThat(o).isInstanceOf(Created.class);
    return ((Created) o).timer();
  }

  Timer touched(WriteOutcome o) {
    assertThat(o).isInstanceOf(Touched.class);
    return ((Touched) o).timer();
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
    Timer inWheel = on(ctx, () -> Future.succeededFuture(scheduler.armed("a")));
    assertThat(inWheel.payload()).isNull();
    assertThat(inWheel).isEqualTo(t.withoutPayload());
  }

  @Test
  void theMemoryStoreSharesItsTimerObjectWithTheWheelAfterCreateAndTouchAndFiringsStillCarryThePayload() {
    MemoryTimerStore mem = new MemoryTimerStore();
    Scheduler s = new Scheduler(vertx, ctx, mem, clock::get, SchedulerOptions.defaults(TICK), new Metrics(), false);
    s.onFiring(fired::add);
    on(ctx, s::recover);
    on(ctx, () -> s.create(spec("{\"id\":\"m\",\"delayMs\":1000,\"payload\":{\"x\":2}}")));
    Timer inWheel = on(ctx, () -> Future.succeededFuture(s.armed("m")));
    assertThat(inWheel).isSameAs(on(ctx, () -> mem.get("m")));
    on(ctx, () -> s.touch("m", 500L));
    Timer touched = on(ctx, () -> Future.succeededFuture(s.armed("m")));
    assertThat(touched).isNotSameAs(inWheel).isSameAs(on(ctx, () -> mem.get("m")));
    clock.set(T0 + 500);
    on(ctx, s::drain);
    assertThat(fired).extracting(Firing::id, Firing::payload).containsExactly(org.assertj.core.groups.Tuple.tuple("m", "{\"x\":2}"));
    assertThat(s.pending()).isZero();
  }

  @Test
  void oneShotFiresAtItsDueMillisecondNeverBeforeEvenInsideATick() {
    create("{\"id\":\"a\",\"delayMs\":95,\"payload\":{\"x\":1}}");
    drainAt(T0 + 90);
    assertThat(fired).isEmpty();
    drainAt(T0 + 94);
    assertThat(fired).isEmpty();
    drainAt(T0 + 95);
    assertThat(fired).hasSize(1);
    Firing f = fired.get(0);
    assertThat(f.id()).isEqualTo("a");
    assertThat(f.seq()).isEqualTo(1);
    assertThat(f.firing()).isEqualTo(1);
    assertThat(f.dueAt()).isEqualTo(T0 + 95);
    assertThat(f.firedAt()).isEqualTo(T0 + 95);
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
      Timer touched = touched(on(ctx, () -> scheduler.touch("hb", null)));
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
    Timer t = touched(on(ctx, () -> scheduler.touch("o", 1000L)));
    assertThat(t.nextDueAt()).isEqualTo(T0 + 1000);
    assertThat(t.delayMs()).isEqualTo(100);
    assertThat(on(ctx, () -> scheduler.touch("missing", null))).isEqualTo(new NotFound("missing"));
  }

  @Test
  void cancelBeforeDueMeansItNeverFires() {
    create("{\"id\":\"c\",\"delayMs\":100}");
    assertThat(on(ctx, () -> scheduler.cancel("c"))).isEqualTo(new Cancelled("c"));
    assertThat(on(ctx, () -> scheduler.cancel("c"))).isEqualTo(new NotFound("c"));
    drainAt(T0 + 10_000);
    assertThat(fired).isEmpty();
    assertThat(stored("c")).isNull();
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void upsertReplacesThePendingDueTimeAndTheOldOneNeverFires() {
    create("{\"id\":\"u\",\"delayMs\":100}");
    WriteOutcome up = on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":500}").withId("u")));
    assertThat(up).isInstanceOf(Replaced.class);
    assertThat(((Replaced) up).timer().generation()).isEqualTo(2);
    drainAt(T0 + 100);
    assertThat(fired).isEmpty();
    drainAt(T0 + 500);
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 500);
    WriteOutcome created = on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":5}").withId("new")));
    assertThat(created).isInstanceOf(Created.class);
    assertThat(((Created) created).timer().generation()).isEqualTo(1);
  }

  @Test
  void createOfAnExistingIdIsRefusedAsAConflict() {
    create("{\"id\":\"dup\",\"delayMs\":100}");
    assertThat(write("{\"id\":\"dup\",\"delayMs\":100}")).isEqualTo(new Conflict("dup"));
  }

  @Test
  void concurrentCreatesOfOneIdGiveExactlyOneSuccessAndOneConflict() {
    store.holdPuts(true);
    List<WriteOutcome> outcomes = on(ctx, () -> {
      Future<WriteOutcome> a = scheduler.create(spec("{\"id\":\"same\",\"delayMs\":100}"));
      Future<WriteOutcome> b = scheduler.create(spec("{\"id\":\"same\",\"delayMs\":200}"));
      assertThat(a.isComplete()).isFalse();
      assertThat(b.isComplete()).isTrue();    // refused at once: the id is reserved before the store write
      store.release();
      return Future.all(a, b).map(v -> List.of(a.result(), b.result()));
    });
    assertThat(outcomes.get(0)).isInstanceOf(Created.class);
    assertThat(outcomes.get(1)).isEqualTo(new Conflict("same"));
  }

  @Test
  void createsBeyondMaxPendingAreRefusedAsCapacityExceeded() {
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withMaxPending(3));
    on(ctx, () -> scheduler.recover());
    create("{\"id\":\"p1\",\"delayMs\":100}");
    create("{\"id\":\"p2\",\"delayMs\":100}");
    create("{\"id\":\"p3\",\"delayMs\":100}");
    assertThat(write("{\"id\":\"p4\",\"delayMs\":100}")).isEqualTo(new CapacityExceeded(3));
    assertThat(on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":100}").withId("p5"))))
        .isEqualTo(new CapacityExceeded(3));
    // replacing an existing one does not add a timer
    assertThat(on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":300}").withId("p1")))).isInstanceOf(Replaced.class);
    List<WriteOutcome> batch = on(ctx, () -> scheduler.createAll(List.of(spec("{\"delayMs\":1}"))));
    assertThat(batch).containsExactly(new CapacityExceeded(3));
  }

  @Test
  void aHundredThousandTimersDueInOneTickFireExactlyOnceOverBoundedTurns() {
    for (int b = 0; b < 10; b++) {
      List<TimerSpec> specs = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        specs.add(spec("{\"id\":\"t" + (b * 10_000 + i) + "\",\"delayMs\":50}"));
      }
      List<WriteOutcome> out = on(ctx, () -> scheduler.createAll(specs));
      assertThat(out).hasSize(10_000).allMatch(o -> o instanceof Created);
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
    List<WriteOutcome> cancelled = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();       // the batch is held by the store
      assertThat(drained.isComplete()).isFalse();
      scheduler.cancel("f").onSuccess(cancelled::add);
      assertThat(cancelled).isEmpty();                   // waits for the firing to settle
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(cancelled).containsExactly(new Cancelled("f"));
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
    List<WriteOutcome> cancelled = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();
      scheduler.cancel("o1").onSuccess(cancelled::add);
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(fired).hasSize(1);
    assertThat(cancelled).containsExactly(new NotFound("o1"));
  }

  @Test
  void replaceArrivingWhileAFiringIsInFlightTakesOverAfterItAndTheOldGridNeverFiresAgain() {
    create("{\"id\":\"g\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    store.holdFirings(true);
    clock.set(T0 + 100);
    List<WriteOutcome> ups = new CopyOnWriteArrayList<>();
    on(ctx, () -> {
      Future<Integer> drained = scheduler.drain();
      scheduler.upsert(spec("{\"delayMs\":1000}").withId("g")).onSuccess(ups::add);
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(ups).hasSize(1);
    assertThat(ups.get(0)).isInstanceOfSatisfying(Replaced.class, r -> assertThat(r.timer().generation()).isEqualTo(2));
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
  void firingsRecordedByABatchWhoseAnswerWasLostArePublishedOnceAndInSeqOrder() {
    List<io.tickwheel.core.delivery.Delivery> deliveries = java.util.Collections.synchronizedList(new ArrayList<>());
    on(ctx, () -> {
      scheduler.onDelivery(deliveries::add);
      return io.vertx.core.Future.succeededFuture();
    });
    parser = new TimerParser(Limits.defaults(TICK), true);   // callbacks
    create("{\"id\":\"a1\",\"delayMs\":100,\"callback\":{\"url\":\"https://hooks.example.com/a1\"}}");
    create("{\"id\":\"a2\",\"delayMs\":100}");
    create("{\"id\":\"a3\",\"delayMs\":200}");
    store.applyThenFailFirings(1);                    // recorded, then the answer is lost: the retry finds them stale
    drainAt(T0 + 100);
    drainAt(T0 + 200);
    assertThat(fired).extracting(Firing::id).containsExactly("a1", "a2", "a3");
    assertThat(fired).extracting(Firing::seq).containsExactly(1L, 2L, 3L);
    assertThat(scheduler.pending()).isZero();
    assertThat(deliveries).extracting(io.tickwheel.core.delivery.Delivery::seq).containsExactly(1L); // read back too
  }

  @Test
  void aResumeWhoseAnswerWasLostIsReadBackAndTheTimerFires() {
    create("{\"id\":\"p\",\"delayMs\":100}");
    assertThat(on(ctx, () -> scheduler.pause("p"))).isInstanceOf(WriteOutcome.Paused.class);
    store.applyThenFailWrites(1);
    assertThat(on(ctx, () -> scheduler.resume("p")))
        .isEqualTo(new StoreUnavailable("write applied, its answer lost (test)", true, true));
    Awaitility.await("p, resumed in the store, fired")
        .atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5)).until(() -> {
      drainAt(T0 + 100);
      return fired.size() == 1;
    });
    assertThat(fired).extracting(Firing::id).containsExactly("p");
  }

  @Test
  void writesAnswerStoreUnavailableAndKeepTheTimerWhenTheStoreIsDown() {
    create("{\"id\":\"k\",\"delayMs\":100}");
    create("{\"id\":\"k3\",\"delayMs\":100}");
    store.down(true);
    StoreUnavailable down = new StoreUnavailable("store is down (test)", true, true);   // "may have been applied"
    assertThat(on(ctx, () -> scheduler.touch("k", null))).isEqualTo(down);
    // with the default window a create of an id not in memory is a create-if-absent in the store (it may be far):
    // it fails at its write, which may have been applied, so k2 is read back too
    assertThat(write("{\"id\":\"k2\",\"delayMs\":100}")).isEqualTo(down);
    assertThat(on(ctx, () -> scheduler.cancel("k3"))).isEqualTo(down);
    // each id is held now and read back from the store once it answers (a write of it meanwhile answers Busy)
    assertThat(write("{\"id\":\"k2\",\"delayMs\":100}")).isInstanceOf(Conflict.class);
    assertThat(on(ctx, () -> scheduler.get("k"))).isEqualTo(new StoreUnavailable("store is down (test)", false, false));
    store.down(false);
    Awaitility.await("k and k3 read back and armed, k2 found absent")
        .atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5)).until(() -> {
      drainAt(T0 + 100);
      return fired.size() == 2;
    });
    assertThat(fired).extracting(Firing::id).containsExactlyInAnyOrder("k", "k3");
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aWriteOfAnIdWhoseReadBackFoundTheStoreDownAnswersBusyAtOnceNotAfterTheLockTimeout() {
    create("{\"id\":\"k\",\"delayMs\":100}");
    store.down(true);
    StoreUnavailable down = new StoreUnavailable("store is down (test)", true, true);
    assertThat(on(ctx, () -> scheduler.touch("k", null))).isEqualTo(down);        // k held, its read-back fails
    long lockTimeoutMs = SchedulerOptions.defaults(TICK).lockTimeoutMs();
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      assertThat(on(ctx, () -> scheduler.cancel("k"))).isEqualTo(new Refusal.Busy("k"));
      assertThat(on(ctx, () -> scheduler.touch("k", 50L))).isEqualTo(new Refusal.Busy("k"));
      assertThat(java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0))
          .as("answered at once, not after the %d ms lock timeout", lockTimeoutMs).isLessThan(lockTimeoutMs / 4);
    }
    store.down(false);
    Awaitility.await("k read back, armed and fired at its stored due time")
        .atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5)).until(() -> {
      drainAt(T0 + 100);
      return fired.size() == 1;
    });
    assertThat(on(ctx, () -> scheduler.touch("k", 50L))).isEqualTo(new NotFound("k"));  // released: a once timer, done
  }

  @Test
  void aCreateReplaceTouchOrCancelWhoseAnswerWasLostIsReadBackAndTheStoresVersionFires() {
    create("{\"id\":\"r\",\"delayMs\":1000}");
    create("{\"id\":\"t\",\"delayMs\":1000}");
    create("{\"id\":\"c\",\"delayMs\":100}");
    store.applyThenFailWrites(4);
    StoreUnavailable lost = new StoreUnavailable("write applied, its answer lost (test)", true, true);
    assertThat(write("{\"id\":\"n\",\"delayMs\":100}")).isEqualTo(lost);                        // created
    assertThat(on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":100}").withId("r")))).isEqualTo(lost); // moved earlier
    assertThat(on(ctx, () -> scheduler.touch("t", 100L))).isEqualTo(lost);                            // moved earlier
    assertThat(on(ctx, () -> scheduler.cancel("c"))).isEqualTo(lost);                                 // removed
    Awaitility.await("n, r and t fired at the stored due time")
        .atMost(Duration.ofMillis(5_000)).pollInterval(Duration.ofMillis(5)).until(() -> {
      drainAt(T0 + 100);
      return fired.size() == 3;
    });
    assertThat(fired).extracting(Firing::id).containsExactlyInAnyOrder("n", "r", "t");  // not c; r, t not at T0 + 1000
    drainAt(T0 + 1000);
    assertThat(fired).hasSize(3);
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aWriteThatWaitsLongerThanTheLockTimeoutForAFiringInFlightAnswersBusyAndChangesNothing() {
    scheduler = newScheduler(new SchedulerOptions(TICK, 100, 1000, 100, io.tickwheel.core.store.Retention.defaults(),
        10_000, 100, 30));
    on(ctx, () -> scheduler.recover());
    create("{\"id\":\"b\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    store.holdFirings(true);
    clock.set(T0 + 100);
    Future<Integer> drained = on(ctx, () -> Future.succeededFuture(scheduler.drain()));
    // the firing of "b" is held by the store: writes of "b" wait 30 ms (real time), then give up
    assertThat(on(ctx, () -> scheduler.cancel("b"))).isEqualTo(new Refusal.Busy("b"));
    assertThat(on(ctx, () -> scheduler.touch("b", null))).isEqualTo(new Refusal.Busy("b"));
    assertThat(on(ctx, () -> scheduler.upsert(spec("{\"delayMs\":5}").withId("b")))).isEqualTo(new Refusal.Busy("b"));
    on(ctx, () -> {
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(fired).extracting(Firing::dueAt).containsExactly(T0 + 100);
    assertThat(stored("b").generation()).isEqualTo(1);
    assertThat(on(ctx, () -> scheduler.cancel("b"))).isEqualTo(new Cancelled("b"));
  }

  @Test
  void touchAllTouchesEveryPendingIdInOneStoreWriteAndAnswersBusyForAnIdHeldBeyondTheLockTimeout() {
    scheduler = newScheduler(new SchedulerOptions(TICK, 100, 1000, 100, io.tickwheel.core.store.Retention.defaults(),
        10_000, 100, 30));
    on(ctx, () -> scheduler.recover());
    create("{\"id\":\"a\",\"delayMs\":500}");
    create("{\"id\":\"b\",\"kind\":\"fixed-rate\",\"periodMs\":100}");
    create("{\"id\":\"c\",\"delayMs\":700}");
    store.holdFirings(true);
    clock.set(T0 + 100);
    Future<Integer> drained = on(ctx, () -> Future.succeededFuture(scheduler.drain()));
    // "b" is held by its firing in flight: it answers Busy after 30 ms; the others are touched together
    List<WriteOutcome> out = on(ctx, () -> scheduler.touchAll(List.of("a", "b", "gone", "c", "a"), 2000L));
    assertThat(out).hasSize(5);
    assertThat(touched(out.get(0)).nextDueAt()).isEqualTo(T0 + 100 + 2000);
    assertThat(out.get(1)).isEqualTo(new Refusal.Busy("b"));
    assertThat(out.get(2)).isEqualTo(new NotFound("gone"));
    assertThat(touched(out.get(3)).nextDueAt()).isEqualTo(T0 + 100 + 2000);
    assertThat(out.get(4)).isSameAs(out.get(0));
    assertThat(store.updateAllCalls.get()).isEqualTo(1);
    assertThat(store.updateAllTimers.get()).isEqualTo(2);
    on(ctx, () -> {
      store.holdFirings(false);
      store.release();
      return drained;
    });
    assertThat(stored("a").nextDueAt()).isEqualTo(T0 + 2100);
    assertThat(stored("a").generation()).isEqualTo(2);
    drainAt(T0 + 2099);
    assertThat(fired).extracting(Firing::id).containsOnly("b");
    drainAt(T0 + 2100);
    assertThat(fired).extracting(Firing::id).contains("a", "c");
  }

  @Test
  void pipelinedWritesOfOneTurnReachTheStoreAsOneWritePerKind() {
    create("{\"id\":\"t1\",\"delayMs\":500}");
    create("{\"id\":\"t2\",\"delayMs\":500}");
    int createsBefore = store.createAllCalls.get();
    List<WriteOutcome> out = on(ctx, () -> {
      List<Future<WriteOutcome>> fs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        fs.add(scheduler.pipeline().create(spec("{\"id\":\"p" + i + "\",\"delayMs\":300}")));
      }
      fs.add(scheduler.pipeline().touch("t1", 900L));
      fs.add(scheduler.pipeline().touch("t2", null));
      fs.add(scheduler.pipeline().touch("nope", null));
      fs.add(scheduler.pipeline().create(spec("{\"id\":\"t1\",\"delayMs\":300}")));
      return Future.all(fs).map(cf -> fs.stream().map(Future::result).toList());
    });
    assertThat(out.subList(0, 50)).allSatisfy(o -> assertThat(o).isInstanceOf(WriteOutcome.Created.class));
    assertThat(touched(out.get(50)).nextDueAt()).isEqualTo(T0 + 900);
    assertThat(touched(out.get(51)).nextDueAt()).isEqualTo(T0 + 500);
    assertThat(out.get(52)).isEqualTo(new NotFound("nope"));
    assertThat(out.get(53)).isEqualTo(new Refusal.Conflict("t1"));
    assertThat(store.createAllCalls.get() - createsBefore).as("50 creates, one createAll").isEqualTo(1);
    assertThat(store.updateAllCalls.get()).as("2 touches, one updateAll").isEqualTo(1);
    assertThat(scheduler.pipelineStoreWrites()).isEqualTo(2);
    assertThat(stored("p49")).isNotNull();
    drainAt(T0 + 300);
    assertThat(fired).hasSize(50);
  }

  @Test
  void readsGoThroughTheSchedulerToTheStoreWithThePayload() {
    create("{\"id\":\"r1\",\"delayMs\":100,\"payload\":{\"x\":1}}");
    create("{\"id\":\"r2\",\"delayMs\":50}");
    assertThat(on(ctx, () -> scheduler.get("r1")))
        .isInstanceOfSatisfying(ReadOutcome.Found.class, f -> assertThat(f.timer().payload()).isEqualTo("{\"x\":1}"));
    assertThat(on(ctx, () -> scheduler.get("nope"))).isEqualTo(new NotFound("nope"));
    assertThat(on(ctx, () -> scheduler.list(null, null, 10)))
        .isInstanceOfSatisfying(ReadOutcome.Listed.class,
            l -> assertThat(l.page().timers()).extracting(Timer::id).containsExactly("r2", "r1"));
  }

  @Test
  void theWheelSnapshotCountsTheArmedTimersAndIsNotChangedByLaterWrites() {
    create("{\"id\":\"w1\",\"delayMs\":30}");
    create("{\"id\":\"w2\",\"delayMs\":5000}");
    WheelSnapshot snap = on(ctx, () -> Future.succeededFuture(scheduler.wheelSnapshot()));
    assertThat(snap.tickMs()).isEqualTo(TICK);
    assertThat(snap.wheelTimeMs()).isEqualTo(T0);
    assertThat(snap.levels().get(0).count()).isEqualTo(1);       // w1, 3 ticks ahead; w2 is in a coarser level
    assertThat(snap.levels().stream().mapToInt(WheelSnapshot.Level::count).sum()).isEqualTo(2);
    for (WheelSnapshot.Level l : snap.levels()) {
      assertThat(java.util.Arrays.stream(l.occupancy()).sum()).isEqualTo(l.count());
      assertThat(l.occupancy()).hasSize(l.slots());
    }
    create("{\"id\":\"w3\",\"delayMs\":30}");
    assertThat(snap.levels().stream().mapToInt(WheelSnapshot.Level::count).sum()).isEqualTo(2);
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
    scheduler = newScheduler(SchedulerOptions.defaults(TICK));
    long n = on(ctx, () -> scheduler.recover());
    assertThat(n).isEqualTo(timers.length);
  }

  @Test
  void aRecoveredCronTimerWhoseExpressionNoLongerParsesIsKeptAndLookedAtAgainWhileTheOthersFire() {
    io.tickwheel.core.calendar.ZonedCron bad = io.tickwheel.core.calendar.ZonedCron.stored("61 * * * *",
        java.time.ZoneId.of("UTC"), io.tickwheel.core.calendar.DstGap.AUTO, io.tickwheel.core.calendar.DstOverlap.AUTO);
    recoverWith(new Timer("bad", "default", Kind.CRON, 0, 0, 0, Misfire.FIRE_ONCE, null, T0 - 1000, T0, 0, 1,
            new Timer.Extras(bad, Timer.NO_END, 0, false, T0)),
        new Timer("ok", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null, T0, T0 + 10, 0, 1));
    drainAt(T0 + 10);
    assertThat(fired).extracting(Firing::id).containsExactly("ok");
    assertThat(scheduler.pending()).isEqualTo(1);
    assertThat(stored("bad")).isNotNull();
    drainAt(T0 + 10 + FireLoop.UNDECIDABLE_RETRY_MS - 20);
    drainAt(T0 + FireLoop.UNDECIDABLE_RETRY_MS);       // looked at again (and kept again): never fired, never lost
    assertThat(fired).extracting(Firing::id).containsExactly("ok");
    assertThat(scheduler.pending()).isEqualTo(1);
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
  void writesAreRefusedAsRecoveringUntilRecoveryHasFinished() {
    Scheduler fresh = newScheduler(SchedulerOptions.defaults(TICK));
    assertThat(fresh.ready()).isFalse();
    assertThat(on(ctx, () -> fresh.create(spec("{\"delayMs\":1}")))).isEqualTo(new Recovering());
    assertThat(on(ctx, () -> fresh.upsert(spec("{\"delayMs\":1}").withId("x")))).isEqualTo(new Recovering());
    assertThat(on(ctx, () -> fresh.cancel("x"))).isEqualTo(new Recovering());
    assertThat(on(ctx, () -> fresh.touch("x", null))).isEqualTo(new Recovering());
    assertThat(on(ctx, () -> fresh.createAll(List.of(spec("{\"delayMs\":1}"))))).containsExactly(new Recovering());
  }
}
