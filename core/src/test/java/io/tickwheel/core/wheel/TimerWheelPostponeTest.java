package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lazy postponement: re-arming a pending timer to a later due time leaves it in its slot until that slot comes round. */
class TimerWheelPostponeTest {

  private final Recorder<String> recorder = new Recorder<>();

  private static int[] occupancy(TimerWheel<?> wheel, int level) {
    int[] counts = new int[64];
    wheel.occupancy(level, counts);
    return counts;
  }

  private static int totalOccupancy(TimerWheel<?> wheel) {
    int total = 0;
    for (int level = 0; level < wheel.levels(); level++) {
      total += wheel.occupancy(level, new int[64]);
    }
    return total;
  }

  /** Advances to {@code expectedFireMs - 1} (nothing) then to {@code expectedFireMs} (just {@code key}). */
  private void assertFiresExactlyAt(TimerWheel<String> wheel, String key, long expectedFireMs) {
    recorder.fired.clear();
    recorder.advance(wheel, expectedFireMs - 1);
    assertThat(recorder.keys()).as("%s before %d", key, expectedFireMs).isEmpty();
    recorder.advance(wheel, expectedFireMs);
    assertThat(recorder.keys()).as("%s at %d", key, expectedFireMs).containsExactly(key);
  }

  @Test
  void heartbeatPostponedEverySecondFiresExactlyOnceAtItsLastDueTime() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("hb", 3_000, "v");
    long lastTouch = 0;
    for (long now = 0; now <= 60_000; now += 100) {
      recorder.advance(wheel, now);
      if (now > 0 && now % 1_000 == 0) {
        assertThat(wheel.schedule("hb", now + 3_000, "v")).isFalse();
        lastTouch = now;
      }
    }
    assertThat(recorder.fired).isEmpty();
    assertThat(wheel.postponedTotal()).as("every touch after the first is lazy").isEqualTo(60);
    assertThat(wheel.refiledTotal()).as("re-filed once per old slot, not once per touch")
        .isPositive().isLessThan(wheel.postponedTotal());
    assertThat(wheel.dueAt("hb")).isEqualTo(lastTouch + 3_000);

    assertFiresExactlyAt(wheel, "hb", lastTouch + 3_000);
    assertThat(recorder.fired).singleElement()
        .isEqualTo(new Recorder.Fired("hb", lastTouch + 3_000, "v", lastTouch + 3_000));
    recorder.advance(wheel, lastTouch + 1_000_000);
    assertThat(recorder.fired).hasSize(1);
    assertThat(wheel.size()).isZero();
  }

  @Test
  void timerPostponedAtLevel0IsRefiledWhenTheCursorReachesItsOldTick() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 40, null);
    recorder.advance(wheel, 10);
    wheel.schedule("a", 50, null);
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    assertThat(occupancy(wheel, 0)[40]).as("still in its old slot").isEqualTo(1);
    assertThat(occupancy(wheel, 0)[50]).isZero();

    recorder.advance(wheel, 40);
    assertThat(recorder.fired).isEmpty();
    assertThat(wheel.refiledTotal()).isEqualTo(1);
    assertThat(occupancy(wheel, 0)[40]).isZero();
    assertThat(occupancy(wheel, 0)[50]).isEqualTo(1);
    assertFiresExactlyAt(wheel, "a", 50);
  }

  @Test
  void timerPostponedManyTimesAtEveryTickFiresOnceAtTheRightTick() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    wheel.schedule("a", 5, null);
    for (long now = 1; now <= 1_000; now++) {
      recorder.advance(wheel, now);
      wheel.schedule("a", now + 5 + (now % 7), null);   // sometimes sooner than before, never due yet
    }
    assertThat(recorder.fired).isEmpty();
    long due = wheel.dueAt("a");
    assertThat(due).isEqualTo(1_000 + 5 + 1_000 % 7);
    assertFiresExactlyAt(wheel, "a", due);
    assertThat(wheel.postponedTotal()).isPositive();
    assertThat(wheel.refiledTotal()).isLessThanOrEqualTo(wheel.postponedTotal());
  }

  @Test
  void timerPostponedAcrossLevelsIsRefiledWhenItsSlotCascadesAndFiresOnItsNewTick() {
    TimerWheel<String> wheel = new TimerWheel<>(1, 0);
    long first = 2L * 4096 + 5;                  // level 2, slot 2
    long second = 3L * 4096 + 64 * 5 + 7;        // level 2, slot 3
    wheel.schedule("t", first, null);
    wheel.schedule("t", second, null);
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    assertThat(occupancy(wheel, 2)[2]).as("counted in its old slot").isEqualTo(1);
    assertThat(occupancy(wheel, 2)[3]).isZero();

    recorder.advance(wheel, 2L * 4096);       // enters level-2 slot 2: re-filed, not cascaded
    assertThat(recorder.fired).isEmpty();
    assertThat(wheel.refiledTotal()).isEqualTo(1);
    assertThat(wheel.cascadedTotal()).isZero();
    assertThat(occupancy(wheel, 2)[2]).isZero();
    assertThat(occupancy(wheel, 2)[3]).isEqualTo(1);

    recorder.advance(wheel, 3L * 4096);       // enters level-2 slot 3: cascaded to level 1, slot 5
    assertThat(wheel.cascadedTotal()).isEqualTo(1);
    assertThat(occupancy(wheel, 1)[5]).isEqualTo(1);
    long third = 3L * 4096 + 64 * 9 + 1;      // postponed again, within level 1: stays in slot 5
    wheel.schedule("t", third, null);
    assertThat(wheel.postponedTotal()).isEqualTo(2);
    assertThat(occupancy(wheel, 1)[5]).isEqualTo(1);

    recorder.advance(wheel, 3L * 4096 + 64 * 5);   // enters level-1 slot 5: re-filed to slot 9
    assertThat(wheel.refiledTotal()).isEqualTo(2);
    assertThat(occupancy(wheel, 1)[5]).isZero();
    assertThat(occupancy(wheel, 1)[9]).isEqualTo(1);
    assertFiresExactlyAt(wheel, "t", third);
    assertThat(wheel.cascadedTotal()).isEqualTo(2);
  }

  @Test
  void timerPostponedToAFarLevelIsRefiledUpwardsAndCascadesDownFromThere() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("t", 1_000, null);                      // tick 100: level 1
    long far = 10L * 365 * 24 * 3600 * 1000;              // ten years: level 5
    wheel.schedule("t", far, null);
    assertThat(wheel.levels()).isEqualTo(2);               // not moved: no level added yet
    recorder.advance(wheel, 640);                          // the old level-1 slot comes round
    assertThat(wheel.refiledTotal()).isEqualTo(1);
    assertThat(wheel.levels()).isEqualTo(6);
    assertThat(wheel.occupancy(1, new int[64])).isZero();
    assertThat(wheel.occupancy(5, new int[64])).isEqualTo(1);
    assertFiresExactlyAt(wheel, "t", far);
  }

  @Test
  void reArmToAnEarlierTickAfterAPostponementFiresAtTheEarlierTick() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 5_000, null);
    wheel.schedule("a", 9_000, null);     // postponed: stays in the slot of 5 000
    wheel.schedule("a", 2_000, null);     // before the slot it sits in: moved at once
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    assertFiresExactlyAt(wheel, "a", 2_000);
    recorder.advance(wheel, 20_000);
    assertThat(recorder.fired).hasSize(1);
  }

  @Test
  void reArmEarlierThanThePostponedDueTimeButAfterItsSlotMovesItAndFiresAtTheLatestDueTimeOnly() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 5_000, null);
    wheel.schedule("a", 9_000, null);
    wheel.schedule("a", 7_000, null);     // earlier than its due time: moved (bounds stay lower bounds)
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    recorder.advance(wheel, 6_999);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 7_000);
    assertThat(recorder.keys()).containsExactly("a");
    assertThat(recorder.fired.get(0).dueAtMs()).isEqualTo(7_000);
    recorder.advance(wheel, 20_000);
    assertThat(recorder.fired).hasSize(1);
  }

  @Test
  void reArmToAnyLaterDueTimeIsPostponedLazilyAndNeverFiresEarlyOrLate() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("sameTick", 1_000, null);    // tick 100
    wheel.schedule("sameTick", 1_001, null);    // tick 100 still
    wheel.schedule("nextTick", 1_000, null);
    wheel.schedule("nextTick", 1_010, null);    // tick 101
    wheel.schedule("twoOn", 1_000, null);
    wheel.schedule("twoOn", 1_020, null);       // tick 102
    assertThat(wheel.postponedTotal()).isEqualTo(3);
    assertThat(occupancy(wheel, 1)[1]).as("all three still in the slot of tick 100").isEqualTo(3);
    recorder.advance(wheel, 1_000);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_001);
    assertThat(recorder.takeKeys()).containsExactly("sameTick");
    recorder.advance(wheel, 1_009);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_010);
    assertThat(recorder.takeKeys()).containsExactly("nextTick");
    recorder.advance(wheel, 1_019);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_020);
    assertThat(recorder.keys()).containsExactly("twoOn");
  }

  @Test
  void pastDueTimerFiledUnderTheCurrentTickIsNotTakenForAPostponedOne() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 1_000);
    recorder.advance(wheel, 1_007);
    wheel.schedule("x", 1_003, null);        // already passed, in the current tick 100
    recorder.advance(wheel, 1_007, 0);
    assertThat(wheel.refiledTotal()).isZero();
    recorder.advance(wheel, 1_007);
    assertThat(recorder.keys()).containsExactly("x");
  }

  @Test
  void cancelledPostponedTimerNeverFiresAndItsKeyCanBeScheduledAgain() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 5_000, null);
    wheel.schedule("a", 9_000, null);
    assertThat(wheel.cancel("a")).isTrue();
    assertThat(wheel.cancel("a")).isFalse();
    assertThat(wheel.contains("a")).isFalse();
    assertThat(wheel.size()).isZero();
    assertThat(totalOccupancy(wheel)).isZero();
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(TimerWheel.NO_DEADLINE);
    recorder.advance(wheel, 20_000);
    assertThat(recorder.fired).isEmpty();

    wheel.schedule("a", 26_000, null);
    assertFiresExactlyAt(wheel, "a", 26_000);
    assertThat(wheel.refiledTotal()).isZero();
  }

  @Test
  void limitedAdvanceRefilesEveryPostponedTimerOfItsSlotOnceWithoutCountingThem() {
    int n = 10_000;
    TimerWheel<String> wheel = new TimerWheel<>(10, 0, 6, n);
    for (int i = 0; i < n; i++) {
      wheel.schedule("p" + i, 500, null);              // tick 50, level 0
    }
    for (int i = 0; i < 5; i++) {
      wheel.schedule("d" + i, 500, null);              // behind them in the same slot
    }
    for (int i = 0; i < n; i++) {
      wheel.schedule("p" + i, 1_500 + 10L * (i % 50), null);   // ticks 150 to 199: postponed
    }
    assertThat(wheel.postponedTotal()).isEqualTo(n);
    assertThat(occupancy(wheel, 0)[50]).isEqualTo(n + 5);

    assertThat(recorder.advance(wheel, 500, 2)).isEqualTo(2);
    assertThat(recorder.takeKeys()).containsExactly("d0", "d1");
    assertThat(wheel.refiledTotal()).as("each postponed timer re-filed once, not counted").isEqualTo(n);
    assertThat(wheel.cursor(0)).as("stopped on the tick with due timers").isEqualTo(50);
    assertThat(occupancy(wheel, 0)[50]).isEqualTo(3);

    assertThat(recorder.advance(wheel, 500, 10)).isEqualTo(3);
    assertThat(recorder.takeKeys()).containsExactly("d2", "d3", "d4");
    assertThat(recorder.advance(wheel, 1_499, Integer.MAX_VALUE)).isZero();
    assertThat(wheel.refiledTotal()).isEqualTo(n);
    assertThat(wheel.size()).isEqualTo(n);

    int handed = 0;
    for (long now = 1_500; now <= 2_000; now += 10) {
      handed += recorder.advance(wheel, now, 1_000);
    }
    assertThat(handed).isEqualTo(n);
    assertThat(new HashSet<>(recorder.keys())).hasSize(n);
    assertThat(recorder.fired).allSatisfy(f -> assertThat(f.nowMs()).isEqualTo(f.dueAtMs()));
    assertThat(wheel.refiledTotal()).isEqualTo(n);
  }

  @Test
  void limitZeroRefilesASlotOfPostponedTimersAndMovesOnButHandsOutNothing() {
    int n = 10_000;
    TimerWheel<String> wheel = new TimerWheel<>(10, 0, 6, n);
    for (int i = 0; i < n; i++) {
      wheel.schedule("p" + i, 500, null);
      wheel.schedule("p" + i, 5_000, null);
    }
    wheel.schedule("due", 600, null);
    assertThat(recorder.advance(wheel, 700, 0)).isZero();
    assertThat(wheel.refiledTotal()).isEqualTo(n);
    assertThat(wheel.cursor(0)).as("on the tick of the one due timer").isEqualTo(60);
    assertThat(recorder.advance(wheel, 700, 1)).isEqualTo(1);
    assertThat(recorder.takeKeys()).containsExactly("due");
    assertThat(recorder.advance(wheel, 4_999)).isZero();
    assertThat(recorder.advance(wheel, 5_000)).isEqualTo(n);
    assertThat(wheel.refiledTotal()).isEqualTo(n);
  }

  @Test
  void handlerCanPostponeATimerOfTheTickBeingHandedOut() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    for (String k : List.of("a", "b", "c")) {
      wheel.schedule(k, 105, null);
    }
    recorder.then((key, dueAt, value) -> {
      if (key.equals("a")) {
        wheel.schedule("b", 300, null);   // in the slot being drained: left there, re-filed when met
      }
    });
    recorder.advance(wheel, 110);
    assertThat(recorder.takeKeys()).containsExactly("a", "c");
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    assertThat(wheel.refiledTotal()).isEqualTo(1);
    assertFiresExactlyAt(wheel, "b", 300);
  }

  @Test
  void occupancyCountsAPostponedTimerInItsOldSlotAndEarliestDueAtAndNextExpiryAtStayEarlyBounds() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("a", 1_000, null);      // tick 100: level 1, slot 1 (ticks 64 to 127)
    wheel.schedule("a", 50_000, null);     // tick 5 000: would be level 2, slot 1
    assertThat(wheel.size()).isEqualTo(1);
    assertThat(wheel.dueAt("a")).isEqualTo(50_000);
    assertThat(occupancy(wheel, 1)[1]).isEqualTo(1);
    assertThat(totalOccupancy(wheel)).isEqualTo(1);
    assertThat(wheel.levels()).isEqualTo(2);
    assertThat(wheel.earliestDueAt()).as("start of the old slot: a lower bound").isEqualTo(640);
    assertThat(wheel.nextExpiryAtMs()).as("early, never late").isEqualTo(640);

    List<Long> wakeUps = new ArrayList<>();
    while (wheel.size() > 0) {
      long wake = wheel.nextExpiryAtMs();
      assertThat(wake).isLessThanOrEqualTo(50_000);
      assertThat(wheel.earliestDueAt()).isLessThanOrEqualTo(50_000);
      wakeUps.add(wake);
      recorder.advance(wheel, wake);
    }
    assertThat(recorder.fired).singleElement().satisfies(f -> assertThat(f.nowMs()).isEqualTo(50_000));
    assertThat(wakeUps).as("one extra wake-up for the old slot").hasSizeLessThanOrEqualTo(4).contains(640L);
  }

  @Test
  void reArmWithinItsTickKeepsTheTimerInPlaceAndUpdatesItsValue() {
    TimerWheel<String> wheel = new TimerWheel<>(10, 0);
    wheel.schedule("first", 101, "1");
    wheel.schedule("second", 103, "2");
    assertThat(wheel.schedule("first", 109, "1b")).isFalse();   // same tick 11
    assertThat(wheel.get("first")).isEqualTo("1b");
    assertThat(wheel.postponedTotal()).isEqualTo(1);
    recorder.advance(wheel, 110);
    assertThat(recorder.fired).containsExactly(
        new Recorder.Fired("first", 109, "1b", 110), new Recorder.Fired("second", 103, "2", 110));
    assertThat(wheel.refiledTotal()).isZero();
  }
}
