package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Refusal.CapacityExceeded;
import io.tickwheel.server.scheduler.Refusal.Conflict;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.testing.GatedStore;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The two tiers on a manual clock: a {@link GatedStore} (a {@code DueIndex} that keeps its timers off the heap) and a
 * window of {@value #WINDOW} ms, so the bound moves in steps of 100 ms. Turned with {@code drain}, which first moves
 * the window to the clock's now.
 */
class WindowTest {

  static final long TICK = 10;
  static final long T0 = 1_000_000_000L;
  static final long WINDOW = 1_000;

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  GatedStore store;
  Scheduler scheduler;
  List<Firing> fired;
  final TimerParser parser = new TimerParser(Limits.defaults(TICK));

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
    fired = new CopyOnWriteArrayList<>();
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(WINDOW));
    on(ctx, () -> scheduler.recover());
  }

  Scheduler newScheduler(SchedulerOptions opts) {
    Scheduler s = new Scheduler(vertx, ctx, store, clock::get, opts, new Metrics(), false);
    s.onFiring(fired::add);
    return s;
  }

  WriteOutcome write(String json) {
    return on(ctx, () -> scheduler.create(parser.parse(new JsonObject(json), clock.get())));
  }

  Timer create(String id, long at) {
    WriteOutcome o = write("{\"id\":\"" + id + "\",\"at\":" + at + "}");
    assertThat(o).isInstanceOf(Created.class);
    return ((Created) o).timer();
  }

  int drainAt(long t) {
    clock.set(t);
    return on(ctx, () -> scheduler.drain());
  }

  Timer armed(String id) {
    return on(ctx, () -> Future.succeededFuture(scheduler.armed(id)));
  }

  @Test
  void aRecoveryOfTensOfThousandsOfPagesPlacesEveryTimerWithoutNestingAFuturePerPage() {
    int n = 30_000;
    List<Timer> ts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ts.add(new Timer("w" + i, "t", io.tickwheel.core.model.Kind.ONCE, 500, 0, 0,
          io.tickwheel.core.model.Misfire.FIRE_ONCE, null, T0, T0 + 1 + i % 900, 0, 1));
    }
    on(ctx, () -> store.putAll(ts));
    store.capDuePages(1);      // one timer per page: 30,000 pages, as 30 M timers in pages of 1,000
    int readsBefore = store.dueReads.get();
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(WINDOW));
    assertThat(on(ctx, () -> scheduler.recover())).isEqualTo((long) n);
    assertThat(store.dueReads.get() - readsBefore).isGreaterThanOrEqualTo(n);
    assertThat(scheduler.pending()).isEqualTo(n);
    assertThat(scheduler.farTimers()).isZero();
    assertThat(drainAt(T0 + 1_000)).isEqualTo(n);
    assertThat(fired).hasSize(n);
  }

  @Test
  void withTheDefaultOptionsATimerDueBeyondTenMinutesIsFarAndOneWithinThemIsInMemory() {
    assertThat(SchedulerOptions.defaults(TICK).windowMs()).isEqualTo(600_000);
    store = new GatedStore();
    scheduler = newScheduler(SchedulerOptions.defaults(TICK));
    on(ctx, () -> scheduler.recover());
    drainAt(T0);                     // the loader reads the window past the recovery's span
    assertThat(scheduler.windowBound()).isGreaterThanOrEqualTo(T0 + 600_000);
    create("far", T0 + 48 * 3_600_000L);
    create("heartbeat", T0 + 300_000L);
    assertThat(armed("far")).isNull();
    assertThat(armed("heartbeat")).isNotNull();
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(scheduler.pending()).isEqualTo(2);
  }

  @Test
  void aCreateWhoseAnswerIsLostArmsOnlyTheTimerItMadeNotAFarOneOfThatId() {
    create("f", T0 + 36_000_000L);                               // far
    store.applyThenFailWrites(2);
    Refusal.StoreUnavailable lost = new Refusal.StoreUnavailable("write applied, its answer lost (test)", true, true);
    assertThat(write("{\"id\":\"f\",\"at\":" + (T0 + 500) + "}")).isEqualTo(lost);   // kept f: wrote nothing
    assertThat(write("{\"id\":\"g\",\"at\":" + (T0 + 500) + "}")).isEqualTo(lost);   // created g
    // both are read back: g is armed; f is the far timer stored before, so it stays far and is not armed as well
    org.awaitility.Awaitility.await("read back").atMost(java.time.Duration.ofSeconds(5))
        .pollInterval(java.time.Duration.ofMillis(5))
        .until(() -> armed("g") != null && on(ctx, () -> Future.succeededFuture(scheduler.pending())) == 2);
    assertThat(armed("f")).isNull();
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(armed("g").nextDueAt()).isEqualTo(T0 + 500);
  }

  @Test
  void withWindowZeroEveryTimerIsInMemoryAndTheDueIndexIsNeverRead() {
    store = new GatedStore();
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(0));
    on(ctx, () -> scheduler.recover());
    assertThat(scheduler.windowBound()).isEqualTo(Long.MAX_VALUE);
    create("far", T0 + 48 * 3_600_000L);
    assertThat(armed("far")).isNotNull();
    assertThat(scheduler.farTimers()).isZero();
    assertThat(scheduler.pending()).isEqualTo(1);
    assertThat(drainAt(T0 + 3_600_000L)).isZero();
    assertThat(store.dueReads).hasValue(0);
    // a create does not ask the store first: with the store down it fails at its write ("may have been applied")
    store.down(true);
    assertThat(write("{\"id\":\"k2\",\"delayMs\":100}"))
        .isEqualTo(new Refusal.StoreUnavailable("store is down (test)", true, true));
  }

  @Test
  void aTimerBeyondTheBoundStaysInTheStoreAndIsCountedAsPending() {
    long bound = scheduler.windowBound();
    assertThat(bound).isBetween(T0 + WINDOW, T0 + WINDOW + 100);
    create("near", bound - 1);
    create("far", bound);
    assertThat(armed("near")).isNotNull();
    assertThat(armed("far")).isNull();
    assertThat(scheduler.pending()).isEqualTo(2);
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(on(ctx, () -> store.get("far"))).isNotNull();
  }

  @Test
  void aFarTimerCrossingAtTheWindowEdgeFiresAtItsDueMillisecond() {
    long due = scheduler.windowBound();          // the first millisecond of the far tier
    create("edge", due);
    assertThat(armed("edge")).isNull();
    assertThat(drainAt(due - WINDOW - 1)).isZero();   // the window does not reach it yet
    assertThat(armed("edge")).isNull();
    assertThat(drainAt(due - WINDOW)).isZero();       // now it does: loaded, not due
    assertThat(armed("edge")).isNotNull();
    assertThat(scheduler.farTimers()).isZero();
    assertThat(drainAt(due - 1)).isZero();
    assertThat(fired).isEmpty();
    assertThat(drainAt(due)).isEqualTo(1);
    assertThat(fired).extracting(Firing::id, Firing::dueAt, Firing::firedAt)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("edge", due, due));
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aTouchFromNearToFarFiresOnceAtTheNewTime() {
    create("k", T0 + 500);
    Timer touched = ((WriteOutcome.Touched) on(ctx, () -> scheduler.touch("k", 5_000L))).timer();
    assertThat(touched.nextDueAt()).isEqualTo(T0 + 5_000);
    assertThat(armed("k")).isNull();
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(scheduler.pending()).isEqualTo(1);
    for (long t = T0; t < T0 + 5_000; t += 100) {
      drainAt(t);
    }
    assertThat(fired).isEmpty();
    drainAt(T0 + 5_000);
    drainAt(T0 + 9_000);
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactly(
        org.assertj.core.groups.Tuple.tuple("k", T0 + 5_000));
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aTouchFromFarToNearFiresOnceAtTheNewTime() {
    create("k", T0 + 5_000);
    assertThat(armed("k")).isNull();
    on(ctx, () -> scheduler.touch("k", 300L));
    assertThat(armed("k")).isNotNull();
    assertThat(scheduler.farTimers()).isZero();
    assertThat(scheduler.pending()).isEqualTo(1);
    drainAt(T0 + 299);
    assertThat(fired).isEmpty();
    drainAt(T0 + 300);
    for (long t = T0 + 300; t <= T0 + 7_000; t += 100) {
      drainAt(t);
    }
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactly(
        org.assertj.core.groups.Tuple.tuple("k", T0 + 300));
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aFarTimerCanBeCancelledReplacedAndCreatedOnlyOnce() {
    create("a", T0 + 50_000);
    create("b", T0 + 60_000);
    assertThat(write("{\"id\":\"a\",\"at\":" + (T0 + 100) + "}")).isEqualTo(new Conflict("a"));
    List<WriteOutcome> batch = on(ctx, () -> scheduler.createAll(List.of(
        parser.parse(new JsonObject("{\"id\":\"b\",\"at\":" + (T0 + 100) + "}"), clock.get()),
        parser.parse(new JsonObject("{\"id\":\"c\",\"at\":" + (T0 + 100) + "}"), clock.get()))));
    assertThat(batch.get(0)).isEqualTo(new Conflict("b"));
    assertThat(batch.get(1)).isInstanceOf(Created.class);
    assertThat(on(ctx, () -> scheduler.cancel("a"))).isEqualTo(new WriteOutcome.Cancelled("a"));
    assertThat(on(ctx, () -> scheduler.cancel("a"))).isEqualTo(new Refusal.NotFound("a"));
    WriteOutcome replaced = on(ctx, () -> scheduler.upsert(
        parser.parse(new JsonObject("{\"id\":\"b\",\"at\":" + (T0 + 200) + "}"), clock.get())));
    assertThat(replaced).isInstanceOf(WriteOutcome.Replaced.class);
    assertThat(((WriteOutcome.Replaced) replaced).timer().generation()).isEqualTo(2);
    assertThat(scheduler.farTimers()).isZero();
    assertThat(scheduler.pending()).isEqualTo(2);
    drainAt(T0 + 200);
    assertThat(fired).extracting(Firing::id).containsExactlyInAnyOrder("b", "c");
    for (long t = T0 + 200; t <= T0 + 61_000; t += 500) {
      drainAt(t);
    }
    assertThat(fired).hasSize(2);
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void farTimersCountAgainstMaxPending() {
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(WINDOW).withMaxPending(2));
    on(ctx, () -> scheduler.recover());
    create("a", T0 + 50_000);
    create("b", T0 + 60_000);
    assertThat(write("{\"id\":\"c\",\"at\":" + (T0 + 100) + "}")).isEqualTo(new CapacityExceeded(2));
  }

  @Test
  void aWriteWhileThePageHoldingItsTimerIsReadDecidesAndTheStaleCopyIsNotLoaded() {
    long bound = scheduler.windowBound();
    create("cancelled", bound + 10);
    create("moved", bound + 20);
    create("kept", bound + 30);
    store.holdDueAnswers(true);
    clock.set(bound - WINDOW + 50);
    Future<Integer> draining = on(ctx, () -> Future.succeededFuture(scheduler.drain()));   // its page is in flight
    assertThat(store.dueReads.get()).isPositive();
    assertThat(on(ctx, () -> scheduler.cancel("cancelled"))).isEqualTo(new WriteOutcome.Cancelled("cancelled"));
    on(ctx, () -> scheduler.touch("moved", 5_000L));    // far beyond the loading range
    assertThat(on(ctx, () -> Future.succeededFuture(store.releaseDueAnswers()))).isEqualTo(1);
    store.holdDueAnswers(false);
    on(ctx, () -> draining);
    assertThat(armed("cancelled")).isNull();
    assertThat(armed("moved")).isNull();
    assertThat(armed("kept")).isNotNull();
    assertThat(scheduler.pending()).isEqualTo(2);
    assertThat(scheduler.farTimers()).isEqualTo(1);
    long from = clock.get();
    for (long t = from; t <= from + 6_000; t += 100) {
      drainAt(t);
    }
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactly(
        org.assertj.core.groups.Tuple.tuple("kept", bound + 30),
        org.assertj.core.groups.Tuple.tuple("moved", bound - WINDOW + 50 + 5_000));
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void aRecoveryReadsOnlyItsSpanAndTheLoaderTheRestOfTheWindowAfterIt() {
    long window = 120_000;
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(window));
    on(ctx, () -> scheduler.recover());
    drainAt(T0);
    create("soon", T0 + 5_000);
    create("later", T0 + 60_000);
    create("moved", T0 + 90_000);
    create("far", T0 + 400_000);
    on(ctx, () -> scheduler.stop());
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(window));
    assertThat(on(ctx, () -> scheduler.recover())).isEqualTo(1L);
    assertThat(scheduler.windowBound()).isEqualTo(T0 + WindowLoader.RECOVERY_SPAN_MS);
    assertThat(armed("later")).isNull();
    assertThat(scheduler.farTimers()).isEqualTo(3);
    assertThat(scheduler.pending()).isEqualTo(4);
    // before the loader has run: a touch moves a timer of the unread part of the window into the span
    on(ctx, () -> scheduler.touch("moved", 8_000L));
    assertThat(armed("moved").nextDueAt()).isEqualTo(T0 + 8_000);
    assertThat(scheduler.farTimers()).isEqualTo(2);
    drainAt(T0);
    assertThat(scheduler.windowBound()).isGreaterThanOrEqualTo(T0 + window);
    assertThat(armed("later").nextDueAt()).isEqualTo(T0 + 60_000);
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(scheduler.pending()).isEqualTo(4);
    for (long t = T0; t < T0 + 60_000; t += 500) {
      drainAt(t);
    }
    drainAt(T0 + 59_999);
    assertThat(fired).extracting(Firing::id).containsExactly("soon", "moved");
    drainAt(T0 + 60_000);
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactly(
        org.assertj.core.groups.Tuple.tuple("soon", T0 + 5_000),
        org.assertj.core.groups.Tuple.tuple("moved", T0 + 8_000),
        org.assertj.core.groups.Tuple.tuple("later", T0 + 60_000));
    assertThat(scheduler.pending()).isEqualTo(1);
    assertThat(scheduler.farTimers()).isEqualTo(1);
  }

  @Test
  void recoveryReadsTheWindowAndCountsTheRest() {
    create("near", T0 + 500);
    create("far1", T0 + 50_000);
    create("far2", T0 + 3_600_000);
    on(ctx, () -> scheduler.stop());
    store.dueReads.set(0);
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(WINDOW));
    assertThat(on(ctx, () -> scheduler.recover())).isEqualTo(1L);
    assertThat(store.dueReads.get()).isEqualTo(WindowLoader.RECOVERY_CHAINS);      // one page per chain
    assertThat(scheduler.pending()).isEqualTo(3);
    assertThat(scheduler.farTimers()).isEqualTo(2);
    drainAt(T0 + 500);
    assertThat(fired).extracting(Firing::id).containsExactly("near");
    for (long t = T0 + 500; t <= T0 + 51_000; t += 250) {
      drainAt(t);
    }
    assertThat(fired).extracting(Firing::id).containsExactly("near", "far1");
    assertThat(scheduler.pending()).isEqualTo(1);
  }

  @Test
  void aPeriodicTimerWhoseNextFiringIsBeyondTheWindowGoesFarAndComesBack() {
    WriteOutcome o = write("{\"id\":\"p\",\"kind\":\"fixed-rate\",\"periodMs\":3000}");
    assertThat(o).isInstanceOf(Created.class);
    assertThat(armed("p")).isNull();
    List<Long> dues = new ArrayList<>();
    for (long t = T0; t <= T0 + 9_000; t += 100) {
      drainAt(t);
    }
    fired.forEach(f -> dues.add(f.dueAt()));
    assertThat(dues).containsExactly(T0 + 3_000, T0 + 6_000, T0 + 9_000);
    assertThat(scheduler.pending()).isEqualTo(1);
  }

  List<TopicInfo> topics() {
    return ((ReadOutcome.Topics) on(ctx, () -> scheduler.topics(null, 100))).topics();
  }

  TopicInfo topic(String t) {
    return ((ReadOutcome.Topics) on(ctx, () -> scheduler.topicInfo(t))).topics().get(0);
  }

  @Test
  void topicCountsAndPausedCountsCoverBothTiers() {
    long bound = scheduler.windowBound();
    write("{\"id\":\"n1\",\"topic\":\"a\",\"at\":" + (bound - 1) + "}");
    write("{\"id\":\"f1\",\"topic\":\"a\",\"at\":" + (bound + 5_000) + "}");
    write("{\"id\":\"f2\",\"topic\":\"b\",\"at\":" + (bound + 50_000) + "}");
    write("{\"id\":\"f3\",\"topic\":\"b\",\"at\":" + (bound + 60_000) + "}");
    assertThat(scheduler.farTimers()).isEqualTo(3);
    assertThat(topics()).containsExactly(new TopicInfo("a", 2, false), new TopicInfo("b", 2, false));
    assertThat(topic("b")).isEqualTo(new TopicInfo("b", 2, false));
    assertThat(topic("none")).isEqualTo(new TopicInfo("none", 0, false));

    // a far timer paused stays far, and counts as paused
    assertThat(on(ctx, () -> scheduler.pause("f2"))).isInstanceOf(WriteOutcome.class);
    assertThat(armed("f2")).isNull();
    assertThat(scheduler.farTimers()).isEqualTo(3);
    assertThat(scheduler.pausedTimers()).isEqualTo(1);
    // a paused topic with far timers only
    WriteOutcome p = on(ctx, () -> scheduler.pauseTopic("b"));
    assertThat(p).isEqualTo(new WriteOutcome.TopicChanged(new TopicInfo("b", 2, true)));
    assertThat(topics()).containsExactly(new TopicInfo("a", 2, false), new TopicInfo("b", 2, true));
    assertThat(((ReadOutcome.Topics) on(ctx, () -> scheduler.topics("a", 100))).topics())
        .containsExactly(new TopicInfo("b", 2, true));
    assertThat(((ReadOutcome.Topics) on(ctx, () -> scheduler.topics(null, 1))).topics())
        .containsExactly(new TopicInfo("a", 2, false));
    on(ctx, () -> scheduler.resumeTopic("b"));

    // the window reaches the paused one: still paused, now in memory
    for (long t = T0; t <= bound + 50_000 - WINDOW; t += 250) {
      drainAt(t);
    }
    assertThat(armed("f2")).isNotNull();
    assertThat(scheduler.pausedTimers()).isEqualTo(1);
    assertThat(fired).extracting(Firing::id).containsExactly("n1", "f1");
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(topics()).containsExactly(new TopicInfo("b", 2, false));

    // a cancel of a far timer, then a recovery: the far tier counted from the store
    assertThat(on(ctx, () -> scheduler.cancel("f3"))).isInstanceOf(WriteOutcome.Cancelled.class);
    write("{\"id\":\"f4\",\"topic\":\"c\",\"at\":" + (bound + 3_600_000) + "}");
    assertThat(on(ctx, () -> scheduler.pause("f4"))).isInstanceOf(WriteOutcome.class);
    assertThat(scheduler.pausedTimers()).isEqualTo(2);
    on(ctx, () -> scheduler.stop());
    clock.set(bound + 50_000 - WINDOW + 100);     // f2 inside the window the recovery reads
    scheduler = newScheduler(SchedulerOptions.defaults(TICK).withWindowMs(WINDOW));
    on(ctx, () -> scheduler.recover());
    assertThat(scheduler.pending()).isEqualTo(2);
    assertThat(scheduler.farTimers()).isEqualTo(1);
    assertThat(scheduler.pausedTimers()).isEqualTo(2);
    assertThat(topics()).containsExactly(new TopicInfo("b", 1, false), new TopicInfo("c", 1, false));
    on(ctx, () -> scheduler.resume("f4"));
    assertThat(scheduler.pausedTimers()).isEqualTo(1);
  }
}
