package io.tickwheel.server.scheduler;

import static io.tickwheel.server.testing.TestVertx.on;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.store.memory.MemoryTimerStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.scheduler.WriteOutcome.FiredNow;
import io.tickwheel.server.scheduler.WriteOutcome.Paused;
import io.tickwheel.server.scheduler.WriteOutcome.Resumed;
import io.tickwheel.server.scheduler.WriteOutcome.TopicChanged;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calendars through the scheduler, with a manual clock and exact instants: cron timers, pause and resume of a timer
 * and of a topic, fire-now, and pause state across a restart.
 */
@ExtendWith(BlockedThreadGuard.class)
class CalendarSchedulerTest {

  static final long TICK = 10;
  static final long H = 3_600_000;
  static final long DAY = 24 * H;
  /** 2027-01-04T00:00:00Z, a Monday. */
  static final long T0 = Instant.parse("2027-01-04T00:00:00Z").toEpochMilli();

  static Vertx vertx;
  Context ctx;
  AtomicLong clock;
  TimerStore store;
  Scheduler scheduler;
  List<Firing> fired;
  final TimerParser parser = new TimerParser(Limits.defaults(TICK), true);

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
    store = new MemoryTimerStore();
    fired = Collections.synchronizedList(new ArrayList<>());
    scheduler = restart();
  }

  /** A new scheduler over the same store, recovered (the tests turn it with {@code drain}). */
  Scheduler restart() {
    Scheduler s = new Scheduler(vertx, ctx, store, clock::get, SchedulerOptions.defaults(TICK), new Metrics(), false);
    s.onFiring(fired::add);
    on(ctx, s::recover);
    return s;
  }

  Timer create(String json) {
    TimerSpec spec = parser.parse(new JsonObject(json), clock.get());
    WriteOutcome o = on(ctx, () -> scheduler.create(spec));
    assertThat(o).isInstanceOf(Created.class);
    return ((Created) o).timer();
  }

  int drainAt(long t) {
    clock.set(t);
    return on(ctx, () -> scheduler.drain());
  }

  static long at(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  @Test
  void aCronTimerFiresAtItsInstantsAndNeverBefore() {
    Timer t = create("{\"id\":\"c\",\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"topic\":\"t\"}");
    assertThat(t.nextDueAt()).isEqualTo(T0 + H);
    drainAt(T0 + H - 1);
    assertThat(fired).isEmpty();
    drainAt(T0 + H);
    drainAt(T0 + 2 * H);
    assertThat(fired).extracting(Firing::firing, Firing::dueAt, Firing::nominalAt, Firing::firedAt)
        .containsExactly(tuple(1L, T0 + H, T0 + H, T0 + H), tuple(2L, T0 + 2 * H, T0 + 2 * H, T0 + 2 * H));
    assertThat(on(ctx, () -> store.get("c")).nextDueAt()).isEqualTo(T0 + 3 * H);
  }

  @Test
  void aNewYorkCronOnTheSpringForwardDayFiresAtThreeEdtThroughTheScheduler() {
    clock.set(at("2027-03-13T17:00:00Z"));
    create("{\"id\":\"ny\",\"kind\":\"cron\",\"cron\":\"30 2 * * *\",\"timeZone\":\"America/New_York\"}");
    drainAt(at("2027-03-14T06:59:59.999Z"));
    assertThat(fired).isEmpty();
    drainAt(at("2027-03-14T07:00:00Z"));           // 03:00 EDT: the end of the gap (auto = shift for a fixed hour)
    assertThat(fired).extracting(Firing::dueAt).containsExactly(at("2027-03-14T07:00:00Z"));
    assertThat(on(ctx, () -> store.get("ny")).nextDueAt()).isEqualTo(at("2027-03-15T06:30:00Z"));   // 02:30 EDT
  }

  @Test
  void aTimerPausedForTwoDaysFiresNothingForThemAndResumesAtItsNextNominalTime() {
    create("{\"id\":\"d\",\"kind\":\"cron\",\"cron\":\"0 9 * * *\",\"payload\":{\"x\":1}}");
    clock.set(T0 + H);
    WriteOutcome p = on(ctx, () -> scheduler.pause("d"));
    assertThat(p).isInstanceOf(Paused.class);
    Timer paused = ((Paused) p).timer();
    assertThat(paused.paused()).isTrue();
    assertThat(paused.payload()).isEqualTo("{\"x\":1}");
    assertThat(on(ctx, () -> store.get("d")).paused()).isTrue();
    assertThat(scheduler.pending()).isEqualTo(1);
    assertThat(scheduler.pausedTimers()).isEqualTo(1);
    assertThat(on(ctx, () -> Future.succeededFuture(scheduler.armed("d")))).isNotNull();

    drainAt(T0 + 2 * DAY + 12 * H);
    assertThat(fired).isEmpty();

    WriteOutcome r = on(ctx, () -> scheduler.resume("d"));
    assertThat(r).isInstanceOf(Resumed.class);
    assertThat(((Resumed) r).timer().paused()).isFalse();
    assertThat(((Resumed) r).timer().nextDueAt()).isEqualTo(T0 + 3 * DAY + 9 * H);
    assertThat(scheduler.pausedTimers()).isZero();
    drainAt(T0 + 3 * DAY + 9 * H - 1);
    assertThat(fired).isEmpty();
    drainAt(T0 + 3 * DAY + 9 * H);
    assertThat(fired).extracting(Firing::firing, Firing::dueAt).containsExactly(tuple(1L, T0 + 3 * DAY + 9 * H));
  }

  @Test
  void touchAndReplaceKeepATimerPaused() {
    create("{\"id\":\"p\",\"delayMs\":60000}");
    on(ctx, () -> scheduler.pause("p"));
    WriteOutcome touched = on(ctx, () -> scheduler.touch("p", 5000L));
    assertThat(((WriteOutcome.Touched) touched).timer().paused()).isTrue();
    TimerSpec again = parser.parse(new JsonObject("{\"id\":\"p\",\"delayMs\":1000}"), clock.get());
    WriteOutcome replaced = on(ctx, () -> scheduler.upsert(again));
    assertThat(((WriteOutcome.Replaced) replaced).timer().paused()).isTrue();
    drainAt(T0 + 10 * H);
    assertThat(fired).isEmpty();
    assertThat(on(ctx, () -> store.get("p")).paused()).isTrue();
    assertThat(scheduler.pending()).isEqualTo(1);
  }

  @Test
  void aOnceTimerWhoseTimePassedWhilePausedFiresAtOnceOnResume() {
    create("{\"id\":\"o\",\"delayMs\":60000}");
    on(ctx, () -> scheduler.pause("o"));
    drainAt(T0 + H);
    assertThat(fired).isEmpty();
    on(ctx, () -> scheduler.resume("o"));
    drainAt(T0 + H);
    assertThat(fired).extracting(Firing::id, Firing::dueAt, Firing::firedAt).containsExactly(tuple("o", T0 + H, T0 + H));
    assertThat(scheduler.pending()).isZero();
  }

  @Test
  void pauseResumeAndFireOfAnUnknownTimerAreNotFound() {
    assertThat(on(ctx, () -> scheduler.pause("nope"))).isEqualTo(new NotFound("nope"));
    assertThat(on(ctx, () -> scheduler.resume("nope"))).isEqualTo(new NotFound("nope"));
    assertThat(on(ctx, () -> scheduler.fireNow("nope"))).isEqualTo(new NotFound("nope"));
  }

  @Test
  void aPausedTopicHoldsItsFiringsAndOnResumeEachTimerFollowsItsMisfireRule() {
    create("{\"id\":\"once\",\"topic\":\"t\",\"delayMs\":1800000}");
    create("{\"id\":\"one\",\"topic\":\"t\",\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"misfire\":\"fire-once\"}");
    create("{\"id\":\"skip\",\"topic\":\"t\",\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"misfire\":\"skip\"}");
    create("{\"id\":\"all\",\"topic\":\"t\",\"kind\":\"cron\",\"cron\":\"0 * * * *\",\"misfire\":\"fire-all\"}");
    create("{\"id\":\"other\",\"topic\":\"u\",\"kind\":\"cron\",\"cron\":\"0 * * * *\"}");
    WriteOutcome p = on(ctx, () -> scheduler.pauseTopic("t"));
    assertThat(p).isEqualTo(new TopicChanged(new TopicInfo("t", 4, true)));
    assertThat(scheduler.pausedTopics()).isEqualTo(1);

    for (long h = 1; h <= 3; h++) {
      drainAt(T0 + h * H);
    }
    drainAt(T0 + 3 * H + 30 * 60_000);
    assertThat(fired).extracting(Firing::id).containsExactly("other", "other", "other");
    assertThat(scheduler.pending()).isEqualTo(5);
    assertThat(((ReadOutcome.Topics) on(ctx, () -> scheduler.topics(null, 10))).topics())
        .containsExactly(new TopicInfo("t", 4, true), new TopicInfo("u", 1, false));
    fired.clear();

    WriteOutcome r = on(ctx, () -> scheduler.resumeTopic("t"));
    assertThat(r).isEqualTo(new TopicChanged(new TopicInfo("t", 4, false)));
    drainAt(T0 + 3 * H + 30 * 60_000);
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactlyInAnyOrder(
        tuple("once", T0 + H / 2),
        tuple("one", T0 + 3 * H),
        tuple("all", T0 + H), tuple("all", T0 + 2 * H), tuple("all", T0 + 3 * H));
    assertThat(fired.stream().filter(f -> f.id().equals("all")).map(Firing::dueAt).toList())
        .containsExactly(T0 + H, T0 + 2 * H, T0 + 3 * H);
    assertThat(on(ctx, () -> store.get("skip")).nextDueAt()).isEqualTo(T0 + 4 * H);
    assertThat(on(ctx, () -> store.get("skip")).firings()).isZero();
    assertThat(((ReadOutcome.Topics) on(ctx, () -> scheduler.topics(null, 10))).topics())
        .containsExactly(new TopicInfo("t", 3, false), new TopicInfo("u", 1, false));
  }

  @Test
  void fireNowOfAOnceTimerFiresItOnceThroughTheFiringLogAndEndsIt() {
    create("{\"id\":\"o\",\"delayMs\":3600000,\"payload\":{\"k\":\"v\"}}");
    clock.set(T0 + 60_000);
    Future<WriteOutcome> asked = on(ctx, () -> Future.succeededFuture(scheduler.fireNow("o")));
    on(ctx, () -> scheduler.drain());
    WriteOutcome o = TestVertx.await(asked);
    assertThat(o).isInstanceOf(FiredNow.class);
    Timer after = ((FiredNow) o).timer();
    assertThat(after.firings()).isEqualTo(1);
    assertThat(after.payload()).isEqualTo("{\"k\":\"v\"}");
    assertThat(fired).extracting(Firing::id, Firing::firing, Firing::dueAt, Firing::firedAt, Firing::payload)
        .containsExactly(tuple("o", 1L, T0 + 60_000, T0 + 60_000, "{\"k\":\"v\"}"));
    assertThat(on(ctx, () -> store.readFirings(0, 10))).hasSize(1);
    assertThat(on(ctx, () -> store.get("o"))).isNull();
    assertThat(scheduler.pending()).isZero();
    drainAt(T0 + 2 * H);
    assertThat(fired).hasSize(1);
  }

  @Test
  void fireNowOfAPeriodicTimerFiresOnceAndKeepsItsSchedule() {
    create("{\"id\":\"r\",\"kind\":\"fixed-rate\",\"periodMs\":3600000}");
    clock.set(T0 + 600_000);
    Future<WriteOutcome> asked = on(ctx, () -> Future.succeededFuture(scheduler.fireNow("r")));
    on(ctx, () -> scheduler.drain());
    Timer after = ((FiredNow) TestVertx.await(asked)).timer();
    assertThat(after.firings()).isEqualTo(1);
    assertThat(after.nextDueAt()).isEqualTo(T0 + H);
    drainAt(T0 + H);
    assertThat(fired).extracting(Firing::firing, Firing::dueAt)
        .containsExactly(tuple(1L, T0 + 600_000), tuple(2L, T0 + H));
    assertThat(on(ctx, () -> store.get("r")).nextDueAt()).isEqualTo(T0 + 2 * H);
  }

  @Test
  void aPausedTimerAndAPausedTopicStayPausedAfterARestart() {
    create("{\"id\":\"p\",\"kind\":\"cron\",\"cron\":\"0 * * * *\"}");
    create("{\"id\":\"q\",\"topic\":\"held\",\"delayMs\":60000}");
    on(ctx, () -> scheduler.pause("p"));
    on(ctx, () -> scheduler.pauseTopic("held"));
    on(ctx, () -> scheduler.stop());

    scheduler = restart();
    assertThat(scheduler.pending()).isEqualTo(2);
    assertThat(scheduler.pausedTimers()).isEqualTo(1);
    assertThat(scheduler.pausedTopics()).isEqualTo(1);
    drainAt(T0 + 5 * H);
    assertThat(fired).isEmpty();
    on(ctx, () -> scheduler.resumeTopic("held"));
    drainAt(T0 + 5 * H);
    assertThat(fired).extracting(Firing::id, Firing::dueAt).containsExactly(tuple("q", T0 + 60_000));
  }
}
