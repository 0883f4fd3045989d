package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.calendar.DstGap;
import io.tickwheel.core.calendar.DstOverlap;
import io.tickwheel.core.calendar.ZonedCron;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Schedule's calendar behaviour: cron, misfire, endAt, jitter, pause/resume, fire-now, upcoming; manual clock. */
class CalendarScheduleTest {

  private static final long THRESHOLD = Schedule.DEFAULT_MISFIRE_THRESHOLD_MS;
  private static final long MIN = 60_000;
  private static final long HOUR = 3_600_000;
  private static final long DAY = 24 * HOUR;

  private static long at(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private static TimerSpec cron(String expr, Misfire misfire, long endAt, long jitterMs, long maxFirings) {
    return new TimerSpec("c1", "default", Kind.CRON, null, null, 0, maxFirings, misfire, null,
        ZonedCron.of(expr, ZoneOffset.UTC, DstGap.AUTO, DstOverlap.AUTO), endAt, jitterMs);
  }

  private static Timer hourly(Misfire misfire, long now) {
    return Schedule.accept(cron("0 * * * *", misfire, Timer.NO_END, 0, 0), now, 1);
  }

  /** Hands the timer to onDue at each of its due times (or {@code now} when later) until nothing is due by {@code until}. */
  private static List<DueDecision> run(Timer t, long now, long until) {
    List<DueDecision> out = new ArrayList<>();
    while (t != null && t.nextDueAt() <= until) {
      long turn = Math.max(now, t.nextDueAt());
      DueDecision d = Schedule.onDue(t, turn, THRESHOLD);
      out.add(d);
      t = d.next();
      now = turn;
    }
    return out;
  }

  @Test
  void cronTimerIsFirstDueAtTheFirstMatchAfterAcceptance() {
    Timer t = hourly(Misfire.FIRE_ONCE, at("2027-01-01T10:00:00Z"));
    assertThat(t.nextDueAt()).isEqualTo(at("2027-01-01T11:00:00Z"));
    assertThat(t.kind()).isEqualTo(Kind.CRON);
    assertThat(t.periodMs()).isZero();
  }

  @Test
  void atAndDelayOnACronTimerMeanNotBefore() {
    long now = at("2027-01-01T10:00:00Z");
    TimerSpec base = cron("0 * * * *", Misfire.FIRE_ONCE, Timer.NO_END, 0, 0);
    TimerSpec withAt = new TimerSpec("c1", "default", Kind.CRON, null, at("2027-01-01T13:00:00Z"), 0, 0,
        Misfire.FIRE_ONCE, null, base.cron(), Timer.NO_END, 0);
    assertThat(Schedule.accept(withAt, now, 1).nextDueAt()).isEqualTo(at("2027-01-01T13:00:00Z"));  // at or after
    TimerSpec withDelay = new TimerSpec("c1", "default", Kind.CRON, 90 * MIN, null, 0, 0,
        Misfire.FIRE_ONCE, null, base.cron(), Timer.NO_END, 0);
    assertThat(Schedule.accept(withDelay, now, 1).nextDueAt()).isEqualTo(at("2027-01-01T12:00:00Z"));
  }

  @Test
  void onTimeCronFiringsFollowTheCalendar() {
    Timer t = hourly(Misfire.FIRE_ONCE, at("2027-01-01T10:00:00Z"));
    List<DueDecision> ds = run(t, t.nextDueAt(), at("2027-01-01T13:00:00Z"));
    assertThat(ds).extracting(DueDecision::firedDueAt).containsExactly(
        at("2027-01-01T11:00:00Z"), at("2027-01-01T12:00:00Z"), at("2027-01-01T13:00:00Z"));
    assertThat(ds).allMatch(DueDecision::fire);
    assertThat(ds.get(2).next().firings()).isEqualTo(3);
  }

  @Test
  void threeHourOutageOfAnHourlyCronFiresOnceWithFireOnce() {
    Timer t = hourly(Misfire.FIRE_ONCE, at("2027-01-01T09:30:00Z"));     // due 10:00; down 09:59 .. 12:30
    DueDecision d = Schedule.onDue(t, at("2027-01-01T12:30:00Z"), THRESHOLD);
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(at("2027-01-01T12:00:00Z"));
    assertThat(d.next().nextDueAt()).isEqualTo(at("2027-01-01T13:00:00Z"));
    assertThat(d.next().firings()).isEqualTo(1);
  }

  @Test
  void threeHourOutageOfAnHourlyCronFiresNothingWithSkip() {
    Timer t = hourly(Misfire.SKIP, at("2027-01-01T09:30:00Z"));
    DueDecision d = Schedule.onDue(t, at("2027-01-01T12:30:00Z"), THRESHOLD);
    assertThat(d.fire()).isFalse();
    assertThat(d.next().nextDueAt()).isEqualTo(at("2027-01-01T13:00:00Z"));
    assertThat(d.next().firings()).isZero();
  }

  @Test
  void threeHourOutageOfAnHourlyCronFiresAllThreeInOrderWithFireAll() {
    Timer t = hourly(Misfire.FIRE_ALL, at("2027-01-01T09:30:00Z"));
    long now = at("2027-01-01T12:30:00Z");
    List<DueDecision> ds = run(t, now, now);
    assertThat(ds).extracting(DueDecision::firedDueAt).containsExactly(
        at("2027-01-01T10:00:00Z"), at("2027-01-01T11:00:00Z"), at("2027-01-01T12:00:00Z"));
    assertThat(ds.get(2).next().nextDueAt()).isEqualTo(at("2027-01-01T13:00:00Z"));
  }

  @Test
  void aYearLongOutageOfAnEverySecondCronFindsTheLatestMissedSecondExactly() {
    TimerSpec spec = new TimerSpec("s", "default", Kind.CRON, null, null, 0, 0, Misfire.FIRE_ONCE, null,
        ZonedCron.of("* * * * * *", ZoneOffset.UTC, DstGap.AUTO, DstOverlap.AUTO), Timer.NO_END, 0);
    Timer t = Schedule.accept(spec, at("2027-01-01T00:00:00Z"), 1);
    long now = at("2028-01-01T00:00:00.500Z");
    DueDecision d = Schedule.onDue(t, now, THRESHOLD);
    assertThat(d.firedDueAt()).isEqualTo(at("2028-01-01T00:00:00Z"));
    assertThat(d.next().nextDueAt()).isEqualTo(at("2028-01-01T00:00:01Z"));
  }

  @Test
  void endAtEndsACronTimerAfterItsLastDueTime() {
    long now = at("2027-01-01T10:30:00Z");
    Timer t = Schedule.accept(cron("0 * * * *", Misfire.FIRE_ONCE, at("2027-01-01T13:00:00Z"), 0, 0), now, 1);
    List<DueDecision> ds = run(t, t.nextDueAt(), Long.MAX_VALUE - 1);
    assertThat(ds).extracting(DueDecision::firedDueAt).containsExactly(
        at("2027-01-01T11:00:00Z"), at("2027-01-01T12:00:00Z"), at("2027-01-01T13:00:00Z"));
    assertThat(ds.get(2).ends()).isTrue();
  }

  @Test
  void endAtEndsAFixedRateTimerAndAMissedRunDoesNotFireAfterIt() {
    TimerSpec spec = new TimerSpec("r", "default", Kind.FIXED_RATE, 100L, null, 100, 0, Misfire.FIRE_ONCE, null,
        null, 1_000_350, 0);
    Timer t = Schedule.accept(spec, 1_000_000, 1);                      // due 1_000_100, 200, 300; end 350
    DueDecision d = Schedule.onDue(t, 1_900_000, THRESHOLD);              // down for 15 minutes
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(1_000_300);
    assertThat(d.ends()).isTrue();
  }

  @Test
  void maxFiringsEndsACronTimer() {
    Timer t = Schedule.accept(cron("0 * * * *", Misfire.FIRE_ONCE, Timer.NO_END, 0, 2), at("2027-01-01T10:30:00Z"), 1);
    List<DueDecision> ds = run(t, t.nextDueAt(), Long.MAX_VALUE - 1);
    assertThat(ds).hasSize(2);
    assertThat(ds.get(1).ends()).isTrue();
  }

  @Test
  void jitterIsDeterministicNeverEarlyAndKeepsTheOrder() {
    long now = at("2027-01-01T10:30:00Z");
    Timer a = Schedule.accept(cron("*/5 * * * *", Misfire.FIRE_ONCE, Timer.NO_END, HOUR, 0), now, 1);
    Timer b = Schedule.accept(cron("*/5 * * * *", Misfire.FIRE_ONCE, Timer.NO_END, HOUR, 0), now, 1);
    assertThat(b).isEqualTo(a);                                         // same id, same due time: same jitter
    List<DueDecision> ds = run(a, a.nextDueAt(), now + DAY);
    long previous = Long.MIN_VALUE;
    int moved = 0;
    for (DueDecision d : ds) {
      assertThat(d.firedDueAt()).isGreaterThanOrEqualTo(d.nominalAt());
      assertThat(d.firedDueAt()).isLessThan(d.nominalAt() + 5 * MIN);   // capped by the gap to the next one
      assertThat(d.firedDueAt()).isGreaterThan(previous);
      assertThat(d.nominalAt() % (5 * MIN)).isZero();
      previous = d.firedDueAt();
      moved += d.firedDueAt() > d.nominalAt() ? 1 : 0;
    }
    assertThat(ds).hasSizeGreaterThanOrEqualTo(287);
    assertThat(moved).isGreaterThan(ds.size() * 9 / 10);
  }

  @Test
  void jitterNeverPushesADueTimePastEndAt() {
    TimerSpec spec = new TimerSpec("j", "default", Kind.FIXED_RATE, null, 1000L, 1000, 0, Misfire.FIRE_ONCE, null,
        null, 3000, 900);
    Timer t = Schedule.accept(spec, 0, 1);
    List<DueDecision> ds = run(t, 0, Long.MAX_VALUE - 1);
    assertThat(ds).extracting(DueDecision::nominalAt).containsExactly(1000L, 2000L, 3000L);
    assertThat(ds.get(2).firedDueAt()).isEqualTo(3000);
  }

  @Test
  void jitterOnAOnceTimerMovesItsDueTimeLater() {
    TimerSpec spec = new TimerSpec("o1", "default", Kind.ONCE, 1000L, null, 0, 0, Misfire.FIRE_ONCE, null,
        null, Timer.NO_END, 10_000);
    Timer t = Schedule.accept(spec, 0, 1);
    assertThat(t.nominalAt()).isEqualTo(1000);
    assertThat(t.nextDueAt()).isBetween(1000L, 10_999L);
    DueDecision d = Schedule.onDue(t, t.nextDueAt(), THRESHOLD);
    assertThat(d.nominalAt()).isEqualTo(1000);
    assertThat(d.firedDueAt()).isEqualTo(t.nextDueAt());
  }

  @Test
  void pauseTwoDaysThenResumeContinuesWithTheNextNominalTimeAndNothingForThePausedDays() {
    long created = at("2027-01-01T08:00:00Z");
    Timer t = Schedule.accept(cron("0 9 * * *", Misfire.FIRE_ALL, Timer.NO_END, 0, 0), created, 1);
    Timer paused = Schedule.pause(t);
    assertThat(paused.paused()).isTrue();
    assertThat(paused.generation()).isEqualTo(2);
    assertThat(Schedule.upcoming(paused)).isEmpty();
    DueDecision slipped = Schedule.onDue(paused, at("2027-01-01T09:00:00Z"), THRESHOLD);
    assertThat(slipped.fire()).isFalse();
    assertThat(slipped.next()).isEqualTo(paused);
    Timer resumed = Schedule.resume(paused, at("2027-01-03T10:00:00Z"));
    assertThat(resumed.paused()).isFalse();
    assertThat(resumed.generation()).isEqualTo(3);
    assertThat(resumed.nextDueAt()).isEqualTo(at("2027-01-04T09:00:00Z"));
    assertThat(resumed.firings()).isZero();
  }

  @Test
  void resumingAFixedRateTimerSkipsTheGridTimesThatPassed() {
    Timer t = Schedule.accept(new TimerSpec("r", "default", Kind.FIXED_RATE, null, 1000L, 1000, 0,
        Misfire.FIRE_ALL, null), 0, 1);
    Timer resumed = Schedule.resume(Schedule.pause(t), 5_500);
    assertThat(resumed.nextDueAt()).isEqualTo(6_000);
  }

  @Test
  void resumingAOnceTimerWhoseTimePassedFiresAtOnce() {
    Timer t = Schedule.accept(new TimerSpec("o", "default", Kind.ONCE, 1000L, null, 0, 0, Misfire.FIRE_ONCE, null),
        0, 1);
    assertThat(Schedule.resume(Schedule.pause(t), 5_000).nextDueAt()).isEqualTo(5_000);
    assertThat(Schedule.resume(Schedule.pause(t), 500).nextDueAt()).isEqualTo(1_000);
  }

  @Test
  void resumingPastEndAtEndsTheTimer() {
    TimerSpec spec = new TimerSpec("r", "default", Kind.FIXED_RATE, null, 1000L, 1000, 0, Misfire.FIRE_ONCE, null,
        null, 3000, 0);
    assertThat(Schedule.resume(Schedule.pause(Schedule.accept(spec, 0, 1)), 3_500)).isNull();
  }

  @Test
  void touchAndPauseStateSurviveEachOther() {
    Timer t = Schedule.pause(hourly(Misfire.FIRE_ONCE, at("2027-01-01T10:00:00Z")));
    Timer touched = Schedule.touch(t, at("2027-01-01T12:10:00Z"), null);
    assertThat(touched.paused()).isTrue();
    assertThat(touched.nextDueAt()).isEqualTo(at("2027-01-01T13:00:00Z"));
    assertThat(Schedule.pause(touched)).isSameAs(touched);
  }

  @Test
  void fireNowEndsAOnceTimerAndKeepsAPeriodicTimersSchedule() {
    Timer once = Schedule.accept(new TimerSpec("o", "default", Kind.ONCE, 1000L, null, 0, 0, Misfire.FIRE_ONCE,
        null), 0, 1);
    DueDecision o = Schedule.fireNow(once, 300);
    assertThat(o.fire()).isTrue();
    assertThat(o.firedDueAt()).isEqualTo(300);
    assertThat(o.ends()).isTrue();

    Timer c = hourly(Misfire.FIRE_ONCE, at("2027-01-01T10:00:00Z"));
    DueDecision p = Schedule.fireNow(c, at("2027-01-01T10:20:00Z"));
    assertThat(p.fire()).isTrue();
    assertThat(p.firedDueAt()).isEqualTo(at("2027-01-01T10:20:00Z"));
    assertThat(p.nominalAt()).isEqualTo(at("2027-01-01T10:20:00Z"));
    assertThat(p.next().nextDueAt()).isEqualTo(c.nextDueAt());
    assertThat(p.next().firings()).isEqualTo(1);
  }

  @Test
  void upcomingListsTheNextFiveDueTimesAsTheyStand() {
    Timer c = hourly(Misfire.FIRE_ONCE, at("2027-01-01T10:00:00Z"));
    assertThat(Schedule.upcoming(c)).containsExactly(at("2027-01-01T11:00:00Z"), at("2027-01-01T12:00:00Z"),
        at("2027-01-01T13:00:00Z"), at("2027-01-01T14:00:00Z"), at("2027-01-01T15:00:00Z"));
    Timer rate = Schedule.accept(new TimerSpec("r", "default", Kind.FIXED_RATE, null, 1000L, 500, 3,
        Misfire.FIRE_ONCE, null), 0, 1);
    assertThat(Schedule.upcoming(rate)).containsExactly(1000, 1500, 2000);          // maxFirings 3
    TimerSpec ending = new TimerSpec("e", "default", Kind.FIXED_DELAY, null, 1000L, 500, 0, Misfire.FIRE_ONCE, null,
        null, 1600, 0);
    assertThat(Schedule.upcoming(Schedule.accept(ending, 0, 1))).containsExactly(1000, 1500);
    Timer once = Schedule.accept(new TimerSpec("o", "default", Kind.ONCE, 70L, null, 0, 0, Misfire.FIRE_ONCE,
        null), 0, 1);
    assertThat(Schedule.upcoming(once)).containsExactly(70);
  }

  @Test
  void aPlainTimerCarriesNoExtrasObject() {
    Timer once = Schedule.accept(new TimerSpec("o", "default", Kind.ONCE, 70L, null, 0, 0, Misfire.FIRE_ONCE,
        null), 0, 1);
    assertThat(once.extras()).isNull();
    assertThat(once.withPaused(true).withPaused(false).extras()).isNull();
    assertThat(new Timer("a", "t", Kind.ONCE, 1, 0, 0, Misfire.FIRE_ONCE, null, 0, 1, 0, 1, Timer.Extras.NONE).extras())
        .isNull();
  }

  @Test
  void timerJsonShowsTheCalendarFieldsOfACronTimer() {
    TimerSpec spec = new TimerSpec("c", "default", Kind.CRON, null, null, 0, 0, Misfire.SKIP, null,
        ZonedCron.of("30 2 * * *", java.time.ZoneId.of("Europe/Paris"), DstGap.SKIP, DstOverlap.AUTO),
        at("2030-01-01T00:00:00Z"), 1000);
    io.vertx.core.json.JsonObject o = new io.vertx.core.json.JsonObject(TimerJson.append(new StringBuilder(),
        Schedule.pause(Schedule.accept(spec, at("2027-01-01T00:00:00Z"), 1))).toString());
    assertThat(o.getString("kind")).isEqualTo("cron");
    assertThat(o.getString("cron")).isEqualTo("30 2 * * *");
    assertThat(o.getString("timeZone")).isEqualTo("Europe/Paris");
    assertThat(o.getString("dstGap")).isEqualTo("skip");
    assertThat(o.getString("dstOverlap")).isEqualTo("auto");
    assertThat(o.getString("misfire")).isEqualTo("skip");
    assertThat(o.getLong("endAt")).isEqualTo(at("2030-01-01T00:00:00Z"));
    assertThat(o.getLong("jitterMs")).isEqualTo(1000);
    assertThat(o.getBoolean("paused")).isTrue();
    assertThat(o.containsKey("periodMs")).isFalse();
  }
}
