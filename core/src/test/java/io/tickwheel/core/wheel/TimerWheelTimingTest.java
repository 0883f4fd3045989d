package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** When timers fire: exact instants with a manual clock. */
class TimerWheelTimingTest {

  private static final long YEAR_MS = 365L * 24 * 3600 * 1000;
  private static final long EPOCH_2024 = 1_704_067_200_000L;

  private final Recorder<String> recorder = new Recorder<>();

  /** Advances to {@code expectedFireMs - 1} (nothing) then to {@code expectedFireMs} (just {@code key}). */
  private void assertFiresExactlyAt(TimerWheel<String> wheel, String key, long expectedFireMs) {
    recorder.fired.clear();
    recorder.advance(wheel, expectedFireMs - 1);
    assertThat(recorder.keys()).as("%s before %d", key, expectedFireMs).isEmpty();
    recorder.advance(wheel, expectedFireMs);
    assertThat(recorder.keys()).as("%s at %d", key, expectedFireMs).containsExactly(key);
    Recorder.Fired f = recorder.fired.get(0);
    assertThat(f.dueAtMs()).isLessThanOrEqualTo(f.nowMs());
  }

  @Test
  void timerDueMidTickFiresAtItsDueMillisecondNotAtTheStartOrEndOfItsTick() {
    for (int offset = 0; offset < 10; offset++) {
      TimerWheel<String> wheel = new TimerWheel<>(10, 0);
      long due = 100 + offset;
      wheel.schedule("t", due, null);
      recorder.fired.clear();
      for (long now = 0; now <= 130; now++) {
        recorder.advance(wheel, now);
        if (now < due) {
          assertThat(recorder.fired).as("due %d, now %d", due, now).isEmpty();
        }
      }
      assertThat(recorder.fired).hasSize(1);
      long firedAt = recorder.fired.get(0).nowMs();
      assertThat(firedAt).as("due %d", due).isEqualTo(due);
    }
  }

  @Test
  void timerDue105WithTick10FiresAt105NotAt100To104() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("t", 105, null);
    recorder.advance(wheel, 100);
    assertThat(recorder.fired).isEmpty();
    assertFiresExactlyAt(wheel, "t", 105);
  }

  @ParameterizedTest(name = "tick {0} ms")
  @ValueSource(longs = {1, 7, 10, 1_000})
  void timersOfOneTickFireEachAtItsOwnMillisecondWhateverTheirScheduleOrder(long tickMs) {
    TimerWheel<String> wheel = new TimerWheel<>(tickMs, 0);
    long base = 1_000 * tickMs;
    int n = (int) Math.min(tickMs, 50);
    for (int i = n - 1; i >= 0; i--) {
      wheel.schedule("t" + i, base + i, null);    // latest first
    }
    for (int i = 0; i < n; i++) {
      assertFiresExactlyAt(wheel, "t" + i, base + i);
    }
    assertThat(wheel.size()).isZero();
  }

  @Test
  void timerIsHandedOutByTheFirstAdvanceThatReachesItsDueTimeWhenAdvancedInBigSteps() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("t", 1_234, null);
    recorder.advance(wheel, 1_233);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_500);
    assertThat(recorder.keys()).containsExactly("t");
  }

  @ParameterizedTest(name = "level {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
  void timersDueJustBeforeAtAndAfterALevelBoundaryFireOnTheirOwnTick(int level) {
    long boundary = 1L << (6 * level);
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("after", boundary + 1, null);
    wheel.schedule("at", boundary, null);
    wheel.schedule("before", boundary - 1, null);
    wheel.schedule("twoSlotsOn", 2 * boundary, null);
    assertThat(wheel.levels()).isEqualTo(level + 1);

    assertFiresExactlyAt(wheel, "before", boundary - 1);
    assertFiresExactlyAt(wheel, "at", boundary);
    assertFiresExactlyAt(wheel, "after", boundary + 1);
    assertFiresExactlyAt(wheel, "twoSlotsOn", 2 * boundary);
    assertThat(wheel.size()).isZero();
  }

  @ParameterizedTest(name = "level {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void levelRolloverWithTick10FiresEachTimerAtItsDueMillisecond(int level) {
    long boundaryTick = 1L << (6 * level);
    long start = 7 * 10;   // the wheel counts ticks from its start tick (7)
    TimerWheel<String> wheel = new TimerWheel<>(10, start);
    long boundaryMs = start + boundaryTick * 10;
    wheel.schedule("justBefore", boundaryMs - 1, null);
    wheel.schedule("at", boundaryMs, null);
    wheel.schedule("justAfter", boundaryMs + 1, null);

    recorder.advance(wheel, boundaryMs - 11);
    assertThat(recorder.fired).isEmpty();
    assertFiresExactlyAt(wheel, "justBefore", boundaryMs - 1);
    assertFiresExactlyAt(wheel, "at", boundaryMs);
    assertFiresExactlyAt(wheel, "justAfter", boundaryMs + 1);
  }

  @Test
  void timerWhoseDigitsDifferAtEveryLevelCascadesDownThroughAllOfThem() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    long due = 0;
    for (int level = 0; level < 7; level++) {
      due |= (long) (level + 1) << (6 * level);
    }
    wheel.schedule("t", due, null);
    // Walk up to it in uneven steps: every level cascades on the way.
    long now = 0;
    while (now < due - 1) {
      now = Math.min(due - 1, now + 1 + now / 3);
      recorder.advance(wheel, now);
      assertThat(recorder.fired).isEmpty();
    }
    assertFiresExactlyAt(wheel, "t", due);
    assertThat(wheel.cascadedTotal()).isBetween(1L, 6L);
  }

  @ParameterizedTest(name = "tick {0} ms")
  @ValueSource(longs = {1, 10})
  void timerTenYearsAheadFiresOnItsTickAndNotBefore(long tickMs) {
    TimerWheel<String> wheel = new TimerWheel<>(tickMs, EPOCH_2024);
    long due = EPOCH_2024 + 10 * YEAR_MS + 3 * tickMs;   // on a tick boundary
    long dueMid = due + (tickMs == 1 ? 1 : 7);           // mid-tick for tick 10
    wheel.schedule("tenYears", due, null);
    wheel.schedule("tenYearsAndABit", dueMid, null);
    wheel.schedule("soon", EPOCH_2024 + 5 * tickMs, null);
    assertThat(wheel.spanMs(wheel.levels() - 1) * wheel.slots(wheel.levels() - 1))
        .isGreaterThanOrEqualTo(10 * YEAR_MS);

    assertFiresExactlyAt(wheel, "soon", EPOCH_2024 + 5 * tickMs);
    // A year at a time, then straight to the tick.
    for (int year = 1; year < 10; year++) {
      recorder.advance(wheel, EPOCH_2024 + year * YEAR_MS);
    }
    assertThat(recorder.keys()).containsExactly("soon");
    assertFiresExactlyAt(wheel, "tenYears", due);
    assertFiresExactlyAt(wheel, "tenYearsAndABit", dueMid);
  }

  @Test
  void dueTimesNearLongMaxValueDoNotOverflowAndNeverFireEarly() {
    TimerWheel<String> wheel = new TimerWheel<>(1, EPOCH_2024);
    wheel.schedule("max", Long.MAX_VALUE, null);
    wheel.schedule("maxMinus1", Long.MAX_VALUE - 1, null);
    assertThat(wheel.earliestDueAt()).isBetween(EPOCH_2024, Long.MAX_VALUE - 1);
    assertThat(wheel.nextExpiryAtMs()).isBetween(EPOCH_2024, Long.MAX_VALUE - 1);
    recorder.advance(wheel, EPOCH_2024 + 1_000 * YEAR_MS);
    recorder.advance(wheel, Long.MAX_VALUE - 2);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, Long.MAX_VALUE - 1);
    assertThat(recorder.keys()).containsExactly("maxMinus1");
    recorder.advance(wheel, Long.MAX_VALUE);
    assertThat(recorder.keys()).containsExactly("maxMinus1", "max");
  }

  @Test
  void dueTimesAtTheEndsOfTheLongRangeFireExactlyWithATickThatDoesNotDivideThem() {
    // With tick 10, Long.MAX_VALUE lies inside a tick that ends after Long.MAX_VALUE.
    TimerWheel<String> wheel = new TimerWheel<>(10, -1_000);
    wheel.schedule("max", Long.MAX_VALUE, null);
    wheel.schedule("min", Long.MIN_VALUE, null);
    recorder.advance(wheel, -1_000);
    assertThat(recorder.keys()).containsExactly("min");
    assertThat(wheel.earliestDueAt()).isLessThanOrEqualTo(Long.MAX_VALUE - 1);
    recorder.advance(wheel, Long.MAX_VALUE - 1);
    assertThat(recorder.keys()).containsExactly("min");
    assertThat(wheel.dueAt("max")).isEqualTo(Long.MAX_VALUE);
    recorder.advance(wheel, Long.MAX_VALUE);
    assertThat(recorder.keys()).containsExactly("min", "max");
    assertThat(wheel.size()).isZero();
  }

  @Test
  void negativeStartTimeWorksAcrossZero() {
    TimerWheel<String> wheel = new TimerWheel<>(3, -100);
    wheel.schedule("neg", -50, null);
    wheel.schedule("zero", 0, null);
    wheel.schedule("pos", 50, null);
    assertFiresExactlyAt(wheel, "neg", -50);
    assertFiresExactlyAt(wheel, "zero", 0);
    assertFiresExactlyAt(wheel, "pos", 50);
  }

  @Test
  void pastDueTimeFiresAtTheNextAdvanceEvenWithTheSameNow() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    recorder.advance(wheel, 1_005);
    wheel.schedule("longAgo", 3, null);
    wheel.schedule("earlierThisTick", 1_001, null);
    wheel.schedule("now", 1_005, null);
    wheel.schedule("laterThisTick", 1_006, null);
    recorder.advance(wheel, 1_005);
    assertThat(recorder.keys()).containsExactly("longAgo", "earlierThisTick", "now");
    assertFiresExactlyAt(wheel, "laterThisTick", 1_006);
  }

  @Test
  void timerDueLaterInTheCurrentTickIsNotHandedOutByAnAdvanceBeforeItsDueTime() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    recorder.advance(wheel, 1_005);
    wheel.schedule("past", 1_003, null);
    recorder.advance(wheel, 1_002);   // backwards, same tick: 1_003 is not due yet at 1_002
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_003);
    assertThat(recorder.keys()).containsExactly("past");
  }

  @Test
  void pastDueTimerScheduledAfterALimitedAdvanceFiresAtTheNextAdvance() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 10, null);
    wheel.schedule("b", 20, null);
    recorder.advance(wheel, 100, 1);
    assertThat(recorder.takeKeys()).containsExactly("a");
    wheel.schedule("late", 50, null);   // after the cursor (20): keeps its own tick
    wheel.schedule("past", 5, null);    // before the cursor: due at the cursor tick, after "b"
    recorder.advance(wheel, 100);
    assertThat(recorder.keys()).containsExactly("b", "past", "late");
  }

  @Test
  void timeGoingBackwardsHandsOutNothingNotYetDueAndKeepsCurrentTime() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    recorder.advance(wheel, 1_000);
    wheel.schedule("t", 1_005, null);
    wheel.schedule("past", 990, null);
    recorder.advance(wheel, 900);
    assertThat(recorder.fired).isEmpty();
    assertThat(wheel.currentTimeMs()).isEqualTo(1_000);
    recorder.advance(wheel, 1_000);
    assertThat(recorder.keys()).containsExactly("past");
    assertFiresExactlyAt(wheel, "t", 1_005);
  }

  @Test
  void advanceWithAnEarlierTimeAfterALimitHandsOutOnlyWhatIsDueByThatTime() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 100, null);
    wheel.schedule("b", 200, null);
    wheel.schedule("c", 300, null);
    recorder.advance(wheel, 1_000, 0);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 250);
    assertThat(recorder.takeKeys()).containsExactly("a", "b");
    assertThat(wheel.currentTimeMs()).isEqualTo(1_000);
    recorder.advance(wheel, 299);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 300);
    assertThat(recorder.keys()).containsExactly("c");
  }

  @Test
  void idleStretchOfADayWithNothingPendingIsOneCursorMove() {
    TimerWheel<String> wheel = new TimerWheel<>(1, EPOCH_2024);
    long movesBefore = wheel.cursorMoves;
    recorder.advance(wheel, EPOCH_2024 + 24L * 3600 * 1000);
    assertThat(wheel.cursorMoves - movesBefore).isEqualTo(1);
    assertThat(wheel.currentTimeMs()).isEqualTo(EPOCH_2024 + 24L * 3600 * 1000);
  }

  @Test
  void idleStretchesUpToATimerDueNextYearTakeAFewStepsPerLevelNotOnePerTick() {
    TimerWheel<String> wheel = new TimerWheel<>(1, EPOCH_2024);
    long due = EPOCH_2024 + YEAR_MS + 12_345;
    wheel.schedule("nextYear", due, null);
    recorder.advance(wheel, EPOCH_2024 + 24L * 3600 * 1000);
    assertThat(wheel.cursorMoves).isLessThanOrEqualTo(2);
    assertThat(recorder.fired).isEmpty();

    long before = wheel.cursorMoves;
    recorder.advance(wheel, due + 1_000_000);
    assertThat(recorder.keys()).containsExactly("nextYear");
    assertThat(wheel.cursorMoves - before).isLessThanOrEqualTo(2L * wheel.levels());
    assertThat(wheel.cascadedTotal()).isLessThanOrEqualTo(wheel.levels());
  }

  @Test
  void aTimerEveryDayForAYearCostsAFewStepsPerTimer() {
    long day = 24L * 3600 * 1000;
    TimerWheel<String> wheel = new TimerWheel<>(1, EPOCH_2024);
    for (int d = 1; d <= 365; d++) {
      wheel.schedule("d" + d, EPOCH_2024 + d * day - 1, null);
    }
    recorder.advance(wheel, EPOCH_2024 + 366 * day);
    List<String> keys = recorder.keys();
    assertThat(keys).hasSize(365).startsWith("d1", "d2").endsWith("d365");
    assertThat(wheel.cursorMoves).isLessThanOrEqualTo(365L * 2 * wheel.levels());
  }
}
