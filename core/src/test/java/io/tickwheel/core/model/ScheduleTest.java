package io.tickwheel.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScheduleTest {

  private static final long NOW = 1_000_000;
  private static final long THRESHOLD = 1000;

  private static TimerSpec spec(Kind kind, Long delay, Long at, long period, long max, Misfire misfire) {
    return new TimerSpec("t", "default", kind, delay, at, period, max, misfire, null);
  }

  private static Timer rate(long due, long period, Misfire misfire) {
    return Schedule.accept(spec(Kind.FIXED_RATE, null, due, period, 0, misfire), NOW, 1);
  }

  @Test
  void onceWithDelayIsDueDelayAfterAcceptance() {
    Timer t = Schedule.accept(spec(Kind.ONCE, 250L, null, 0, 0, Misfire.FIRE_ONCE), NOW, 1);
    assertThat(t.nextDueAt()).isEqualTo(NOW + 250);
    assertThat(t.delayMs()).isEqualTo(250);
    assertThat(t.createdAt()).isEqualTo(NOW);
    assertThat(t.firings()).isZero();
    assertThat(t.generation()).isEqualTo(1);
  }

  @Test
  void onceWithAtKeepsTheRemainingTimeAsItsTouchCountdown() {
    Timer t = Schedule.accept(spec(Kind.ONCE, null, NOW + 5000, 0, 0, Misfire.FIRE_ONCE), NOW, 1);
    assertThat(t.nextDueAt()).isEqualTo(NOW + 5000);
    assertThat(t.delayMs()).isEqualTo(5000);
    Timer past = Schedule.accept(spec(Kind.ONCE, null, NOW - 5000, 0, 0, Misfire.FIRE_ONCE), NOW, 1);
    assertThat(past.delayMs()).isZero();
    assertThat(past.nextDueAt()).isEqualTo(NOW - 5000);
  }

  @Test
  void periodicWithoutDelayOrAtStartsOnePeriodFromAcceptance() {
    Timer t = Schedule.accept(spec(Kind.FIXED_DELAY, null, null, 300, 0, Misfire.FIRE_ONCE), NOW, 1);
    assertThat(t.nextDueAt()).isEqualTo(NOW + 300);
  }

  @Test
  void acceptWithoutAnIdIsRefused() {
    TimerSpec s = new TimerSpec(null, "default", Kind.ONCE, 1L, null, 0, 0, Misfire.FIRE_ONCE, null);
    assertThatThrownBy(() -> Schedule.accept(s, NOW, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void onceFiresForItsDueTimeAndEnds() {
    Timer t = Schedule.accept(spec(Kind.ONCE, 100L, null, 0, 0, Misfire.FIRE_ONCE), NOW, 1);
    DueDecision d = Schedule.onDue(t, NOW + 107, THRESHOLD);
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(NOW + 100);
    assertThat(d.ends()).isTrue();
  }

  @Test
  void fixedRateNextDueIsOnTheGridWhateverTheLateness() {
    Timer t = rate(NOW, 100, Misfire.FIRE_ONCE);
    long now = NOW;
    for (int i = 0; i < 1000; i++) {
      now = t.nextDueAt() + (i % 7) * 9;     // fires up to 54 ms late, never drifts
      DueDecision d = Schedule.onDue(t, now, THRESHOLD);
      assertThat(d.fire()).isTrue();
      assertThat(d.firedDueAt()).isEqualTo(NOW + i * 100L);
      t = d.next();
    }
    assertThat(t.nextDueAt()).isEqualTo(NOW + 1000 * 100L);
    assertThat(t.firings()).isEqualTo(1000);
  }

  @Test
  void fixedDelayNextDueIsOnePeriodAfterTheActualFiring() {
    Timer t = Schedule.accept(spec(Kind.FIXED_DELAY, 0L, null, 100, 0, Misfire.FIRE_ONCE), NOW, 1);
    DueDecision d = Schedule.onDue(t, NOW + 37, THRESHOLD);
    assertThat(d.firedDueAt()).isEqualTo(NOW);
    assertThat(d.next().nextDueAt()).isEqualTo(NOW + 137);
  }

  @Test
  void fixedRateFireAllCatchesUpEveryMissedDueTimeOneByOne() {
    Timer t = rate(NOW, 100, Misfire.FIRE_ALL);
    long now = NOW + 10_050;      // down for 10 s: due times NOW, NOW+100, ..., NOW+10000 missed (101)
    int fired = 0;
    while (t.nextDueAt() <= now) {
      DueDecision d = Schedule.onDue(t, now, THRESHOLD);
      assertThat(d.fire()).isTrue();
      assertThat(d.firedDueAt()).isEqualTo(NOW + fired * 100L);
      fired++;
      t = d.next();
    }
    assertThat(fired).isEqualTo(101);
    assertThat(t.nextDueAt()).isEqualTo(NOW + 10_100);
  }

  @Test
  void fixedRateFireOnceCoalescesMissedDueTimesIntoOneFiringForTheLatest() {
    Timer t = rate(NOW, 100, Misfire.FIRE_ONCE);
    DueDecision d = Schedule.onDue(t, NOW + 10_050, THRESHOLD);
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(NOW + 10_000);
    assertThat(d.next().nextDueAt()).isEqualTo(NOW + 10_100);
    assertThat(d.next().firings()).isEqualTo(1);
  }

  @Test
  void fixedRateSkipDropsMissedDueTimesAndContinuesOnTheGrid() {
    Timer t = rate(NOW, 5000, Misfire.SKIP);
    DueDecision d = Schedule.onDue(t, NOW + 12_000, THRESHOLD);   // NOW, +5000, +10000 missed by > 1 s
    assertThat(d.fire()).isFalse();
    assertThat(d.next().nextDueAt()).isEqualTo(NOW + 15_000);
    assertThat(d.next().firings()).isZero();
  }

  @Test
  void fixedRateSkipStillFiresTheLatestDueTimeWhenItIsWithinTheThreshold() {
    Timer t = rate(NOW, 5000, Misfire.SKIP);
    DueDecision d = Schedule.onDue(t, NOW + 10_400, THRESHOLD);  // +10000 is only 400 ms late
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(NOW + 10_000);
    assertThat(d.next().nextDueAt()).isEqualTo(NOW + 15_000);
  }

  @Test
  void lateWithinTheThresholdIsNotAMisfire() {
    Timer t = rate(NOW, 100, Misfire.SKIP);
    DueDecision d = Schedule.onDue(t, NOW + THRESHOLD, THRESHOLD);
    assertThat(d.fire()).isTrue();
    assertThat(d.firedDueAt()).isEqualTo(NOW);
    assertThat(d.next().nextDueAt()).isEqualTo(NOW + 100);
  }

  @Test
  void maxFiringsEndsTheTimerOnTheFiringThatReachesIt() {
    Timer t = Schedule.accept(spec(Kind.FIXED_DELAY, 10L, null, 10, 3, Misfire.FIRE_ONCE), NOW, 1);
    DueDecision d1 = Schedule.onDue(t, NOW + 10, THRESHOLD);
    DueDecision d2 = Schedule.onDue(d1.next(), NOW + 20, THRESHOLD);
    DueDecision d3 = Schedule.onDue(d2.next(), NOW + 30, THRESHOLD);
    assertThat(d1.ends()).isFalse();
    assertThat(d2.ends()).isFalse();
    assertThat(d3.fire()).isTrue();
    assertThat(d3.ends()).isTrue();
  }

  @Test
  void maxFiringsCountsACoalescedMisfireAsOneFiring() {
    Timer t = Schedule.accept(spec(Kind.FIXED_RATE, null, NOW, 100, 2, Misfire.FIRE_ONCE), NOW, 1);
    DueDecision d = Schedule.onDue(t, NOW + 60_000, THRESHOLD);
    assertThat(d.fire()).isTrue();
    assertThat(d.next().firings()).isEqualTo(1);
  }

  @Test
  void touchRestartsTheCountdownAndBumpsTheGeneration() {
    Timer once = Schedule.accept(spec(Kind.ONCE, 30_000L, null, 0, 0, Misfire.FIRE_ONCE), NOW, 1);
    Timer touched = Schedule.touch(once, NOW + 20_000, null);
    assertThat(touched.nextDueAt()).isEqualTo(NOW + 50_000);
    assertThat(touched.generation()).isEqualTo(2);
    assertThat(touched.delayMs()).isEqualTo(30_000);
    Timer overridden = Schedule.touch(touched, NOW + 21_000, 5_000L);
    assertThat(overridden.nextDueAt()).isEqualTo(NOW + 26_000);
    assertThat(overridden.delayMs()).as("the override is for this countdown only").isEqualTo(30_000);
    Timer rate = rate(NOW, 700, Misfire.FIRE_ONCE);
    assertThat(Schedule.touch(rate, NOW + 50, null).nextDueAt()).isEqualTo(NOW + 750);
  }
}
