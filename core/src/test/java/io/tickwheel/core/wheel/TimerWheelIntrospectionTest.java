package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What the browser console sees: levels, slots, spans, cursors, occupancy, earliest due time. */
class TimerWheelIntrospectionTest {

  private final Recorder<String> recorder = new Recorder<>();

  private static int totalOccupancy(TimerWheel<?> wheel) {
    int total = 0;
    int[] counts = new int[64];
    for (int level = 0; level < wheel.levels(); level++) {
      int atLevel = wheel.occupancy(level, counts);
      int sum = 0;
      for (int i = 0; i < wheel.slots(level); i++) {
        sum += counts[i];
      }
      assertThat(atLevel).isEqualTo(sum);
      total += atLevel;
    }
    return total;
  }

  @Test
  void newWheelHasOneLevelOf64SlotsOfOneTick() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    assertThat(wheel.levels()).isEqualTo(1);
    assertThat(wheel.slots(0)).isEqualTo(64);
    assertThat(wheel.spanMs(0)).isEqualTo(10);
    assertThat(wheel.cursor(0)).isZero();
    assertThat(wheel.occupancy(0, new int[64])).isZero();
  }

  @Test
  void levelsGrowWithFarTimersAndEachLevelSpans64TimesTheOneBelow() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("near", 500, null);
    assertThat(wheel.levels()).isEqualTo(1);
    wheel.schedule("tenYears", 10L * 365 * 24 * 3600 * 1000, null);
    assertThat(wheel.levels()).isEqualTo(6);
    for (int level = 1; level < wheel.levels(); level++) {
      assertThat(wheel.spanMs(level)).isEqualTo(wheel.spanMs(level - 1) * 64);
      assertThat(wheel.slots(level)).isEqualTo(64);
    }
    wheel.cancel("tenYears");
    assertThat(wheel.levels()).isEqualTo(6);
  }

  @Test
  void slotBitsPerLevelSetsSlotsAndSpans() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0, 3, 0);
    wheel.schedule("t", 1L << 40, null);
    assertThat(wheel.slotBitsPerLevel()).isEqualTo(3);
    assertThat(wheel.levels()).isEqualTo(14);
    assertThat(wheel.slots(13)).isEqualTo(8);
    assertThat(wheel.spanMs(13)).isEqualTo(1L << 39);
    recorder.advance(wheel, (1L << 40) - 1);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1L << 40);
    assertThat(recorder.keys()).containsExactly("t");
  }

  @Test
  void spanOfTheTopLevelSaturatesInsteadOfOverflowing() {
    // Started near Long.MIN_VALUE, the wheel counts about 2^64 / 1000 ticks up to Long.MAX_VALUE.
    TimerWheel<String> wheel = new TimerWheel<>(1_000, Long.MIN_VALUE + 1);
    wheel.schedule("t", Long.MAX_VALUE, null);
    assertThat(wheel.levels()).isEqualTo(10);
    assertThat(wheel.spanMs(9)).isEqualTo(Long.MAX_VALUE);
    assertThat(wheel.spanMs(8)).isEqualTo(1_000L << 48);
  }

  @Test
  void levelOutOfRangeIsRejected() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    assertThatThrownBy(() -> wheel.slots(1)).isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("1");
    assertThatThrownBy(() -> wheel.cursor(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> wheel.spanMs(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> wheel.occupancy(1, new int[64])).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> wheel.occupancy(0, new int[63]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64");
  }

  @Test
  void occupancyCountsTimersPerSlotAndSumsToSize() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 5, null);
    wheel.schedule("b", 5, null);
    wheel.schedule("c", 63, null);
    wheel.schedule("d", 64, null);         // level 1, slot 1
    wheel.schedule("e", 64 * 3 + 7, null); // level 1, slot 3
    wheel.schedule("f", 1L << 12, null);   // level 2, slot 1
    int[] counts = new int[64];
    assertThat(wheel.occupancy(0, counts)).isEqualTo(3);
    assertThat(counts[5]).isEqualTo(2);
    assertThat(counts[63]).isEqualTo(1);
    assertThat(wheel.occupancy(1, counts)).isEqualTo(2);
    assertThat(counts[1]).isEqualTo(1);
    assertThat(counts[3]).isEqualTo(1);
    assertThat(wheel.occupancy(2, counts)).isEqualTo(1);
    assertThat(counts[1]).isEqualTo(1);
    assertThat(totalOccupancy(wheel)).isEqualTo(wheel.size()).isEqualTo(6);

    wheel.cancel("a");
    recorder.advance(wheel, 64);   // hands out b, c, d
    assertThat(recorder.keys()).containsExactly("b", "c", "d");
    assertThat(wheel.occupancy(0, counts)).isZero();
    assertThat(wheel.occupancy(1, counts)).isEqualTo(1);
    assertThat(counts[3]).isEqualTo(1);
    recorder.advance(wheel, 64 * 3);   // enters e's level-1 slot: e moves to level 0, slot 7
    assertThat(wheel.occupancy(1, counts)).isZero();
    assertThat(wheel.occupancy(0, counts)).isEqualTo(1);
    assertThat(counts[7]).isEqualTo(1);
    assertThat(totalOccupancy(wheel)).isEqualTo(wheel.size()).isEqualTo(2);
  }

  @Test
  void cursorFollowsTheCurrentTickAtEveryLevel() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("far", 10L << 20, null);
    long now = 10L * (3 + 64 * 5 + 4096 * 2) + 7;
    recorder.advance(wheel, now);
    assertThat(wheel.cursor(0)).isEqualTo(3);
    assertThat(wheel.cursor(1)).isEqualTo(5);
    assertThat(wheel.cursor(2)).isEqualTo(2);
    assertThat(wheel.cursor(3)).isZero();
    recorder.advance(wheel, now + 10);
    assertThat(wheel.cursor(0)).isEqualTo(4);
  }

  @Test
  void cursorCountsTicksFromTheStartTick() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 1_000_005);
    assertThat(wheel.cursor(0)).isZero();
    recorder.advance(wheel, 1_000_000 + 10 * 65);
    assertThat(wheel.cursor(0)).isEqualTo(1);
  }

  @Test
  void cursorStaysOnTheTickALimitStoppedAt() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 20, null);
    wheel.schedule("b", 20, null);
    recorder.advance(wheel, 50, 1);
    assertThat(wheel.cursor(0)).isEqualTo(20);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(20);
    recorder.advance(wheel, 50, 1);
    assertThat(wheel.cursor(0)).isEqualTo(50);
  }

  @Test
  void earliestDueAtIsNeverLaterThanTheEarliestDueTimeAndExactWithTick1AtLevel0() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 40, null);
    wheel.schedule("b", 30, null);
    assertThat(wheel.earliestDueAt()).isEqualTo(30);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(30);
    wheel.cancel("b");
    assertThat(wheel.earliestDueAt()).isEqualTo(40);
    wheel.cancel("a");
    assertThat(wheel.earliestDueAt()).isEqualTo(TimerWheel.NO_DEADLINE);
  }

  @Test
  void nextExpiryAtIsTheExactDueMillisecondInsideATick() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 105, null);
    wheel.schedule("b", 103, null);
    wheel.schedule("c", 108, null);
    assertThat(wheel.earliestDueAt()).isEqualTo(103);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(103);
    assertThat(recorder.advance(wheel, 102, 10)).isZero();
    int[] counts = new int[64];
    assertThat(wheel.occupancy(0, counts)).isEqualTo(3);   // ordered by due time now, still counted in slot 10
    assertThat(counts[10]).isEqualTo(3);
    assertThat(recorder.advance(wheel, wheel.nextExpiryAtMs(), 10)).isEqualTo(1);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(105);
    assertThat(recorder.advance(wheel, wheel.nextExpiryAtMs(), 10)).isEqualTo(1);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(108);
    assertThat(recorder.advance(wheel, wheel.nextExpiryAtMs(), 10)).isEqualTo(1);
    assertThat(recorder.keys()).containsExactly("b", "a", "c");
    assertThat(recorder.fired).allSatisfy(f -> assertThat(f.nowMs()).isEqualTo(f.dueAtMs()));
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(TimerWheel.NO_DEADLINE);
  }

  @Test
  void nextExpiryAtMayBeEarlyAfterACancelButNeverLate() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 103, null);
    wheel.schedule("b", 107, null);
    wheel.cancel("a");
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(103);   // a lower bound: one empty wake-up
    assertThat(wheel.advance(103, recorder, 10)).isZero();
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(107);   // exact once the tick has been reached
    assertThat(wheel.advance(107, recorder, 10)).isEqualTo(1);
  }

  @Test
  void nextExpiryAtFollowsATimerScheduledLaterInTheTickTheWheelIsIn() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 104, null);
    wheel.schedule("b", 109, null);
    recorder.advance(wheel, 104);
    assertThat(recorder.takeKeys()).containsExactly("a");
    wheel.schedule("c", 106, null);
    wheel.schedule("past", 50, null);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(50);
    recorder.advance(wheel, 104);
    assertThat(recorder.takeKeys()).containsExactly("past");
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(106);
    recorder.advance(wheel, 106);
    assertThat(recorder.takeKeys()).containsExactly("c");
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(109);
  }

  @Test
  void earliestDueAtOfAFarTimerIsTheStartOfItsSlotAndFollowingNextExpiryAtReachesIt() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    long due = 5L * 4096 + 100;
    wheel.schedule("far", due, null);
    assertThat(wheel.earliestDueAt()).isEqualTo(5L * 4096).isLessThanOrEqualTo(due);
    int wakeUps = 0;
    while (wheel.size() > 0) {
      long wake = wheel.nextExpiryAtMs();
      assertThat(wake).isLessThanOrEqualTo(due);
      recorder.advance(wheel, wake);
      wakeUps++;
    }
    assertThat(recorder.fired).singleElement().satisfies(f -> assertThat(f.nowMs()).isEqualTo(due));
    assertThat(wakeUps).isLessThanOrEqualTo(3);
  }

  @Test
  void earliestDueAtIncludesTimersScheduledIntoThePast() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    recorder.advance(wheel, 1_000);
    wheel.schedule("past", 400, null);
    wheel.schedule("future", 2_000, null);
    assertThat(wheel.earliestDueAt()).isEqualTo(400);
    assertThat(wheel.nextExpiryAtMs()).isLessThanOrEqualTo(1_000);
  }

  @Test
  void cascadedTotalCountsMovesBetweenLevels() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("l2", 2L * 4096 + 64 * 3 + 5, null);
    recorder.advance(wheel, 2L * 4096 + 64 * 3 + 5);
    assertThat(recorder.keys()).containsExactly("l2");
    assertThat(wheel.cascadedTotal()).isEqualTo(2);
  }
}
