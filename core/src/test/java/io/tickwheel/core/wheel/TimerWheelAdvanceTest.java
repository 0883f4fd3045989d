package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Limits, bursts, order, and a handler that calls back into the wheel. */
class TimerWheelAdvanceTest {

  private final TimerWheel<String> wheel = new TimerWheel<>(10, 0);
  private final Recorder<String> recorder = new Recorder<>();

  @Test
  void timersAreHandedOutInDueTickOrderAcrossTicks() {
    wheel.schedule("c", 300, null);
    wheel.schedule("a", 100, null);
    wheel.schedule("far", 5_000_000, null);
    wheel.schedule("b", 200, null);
    recorder.advance(wheel, 10_000_000);
    assertThat(recorder.keys()).containsExactly("a", "b", "c", "far");
    assertThat(recorder.fired).allSatisfy(f -> assertThat(f.dueAtMs()).isLessThanOrEqualTo(f.nowMs()));
  }

  @Test
  void timersOfATickPassedWholeAreHandedOutInScheduleOrderNotDueOrder() {
    wheel.schedule("due109", 109, null);
    wheel.schedule("due101", 101, null);
    wheel.schedule("due105", 105, null);
    recorder.advance(wheel, 110);
    assertThat(recorder.keys()).containsExactly("due109", "due101", "due105");
  }

  @Test
  void reArmToAnEarlierTickMovesTheTimerToTheBackOfThatTick() {
    wheel.schedule("due109", 900, null);
    wheel.schedule("due101", 101, null);
    wheel.schedule("due105", 105, null);
    wheel.schedule("due109", 109, null);   // earlier than the tick it is filed under: moved at once, at the back
    recorder.advance(wheel, 110);
    assertThat(recorder.keys()).containsExactly("due101", "due105", "due109");
  }

  @Test
  void scheduleOrderWithinATickSurvivesCascadingFromHigherLevels() {
    long due = 10L * (1 << 18) + 5;   // three levels up from tick 0
    wheel.schedule("first", due, null);
    recorder.advance(wheel, 10L * (1 << 12) + 3);
    wheel.schedule("second", due - 2, null);
    recorder.advance(wheel, due - 500);
    wheel.schedule("third", due - 4, null);
    wheel.schedule("fourth", due, null);
    recorder.advance(wheel, due + 10);
    assertThat(recorder.keys()).containsExactly("first", "second", "third", "fourth");
  }

  @Test
  void limitOneHandsOutOneTimerPerCallInOrder() {
    for (int i = 0; i < 5; i++) {
      wheel.schedule("k" + i, 100 + i * 30, null);
    }
    List<String> seen = new ArrayList<>();
    for (int call = 0; call < 5; call++) {
      assertThat(recorder.advance(wheel, 1_000, 1)).isEqualTo(1);
      seen.addAll(recorder.takeKeys());
    }
    assertThat(seen).containsExactly("k0", "k1", "k2", "k3", "k4");
    assertThat(recorder.advance(wheel, 1_000, 1)).isZero();
  }

  @Test
  void limitZeroHandsOutNothingAndLosesNothing() {
    wheel.schedule("a", 100, null);
    wheel.schedule("b", 100_000, null);
    assertThat(recorder.advance(wheel, 200_000, 0)).isZero();
    assertThat(recorder.fired).isEmpty();
    assertThat(wheel.size()).isEqualTo(2);
    assertThat(wheel.currentTimeMs()).isEqualTo(200_000);
    assertThat(recorder.advance(wheel, 200_000, 10)).isEqualTo(2);
    assertThat(recorder.keys()).containsExactly("a", "b");
  }

  @Test
  void burstOfHundredThousandTimersInOneTickIsHandedOutExactlyOnceAcrossLimitedAdvances() {
    int n = 100_000;
    TimerWheel<String> big = new TimerWheel<>(10, 0, 6, n);
    for (int i = 0; i < n; i++) {
      big.schedule("t" + i, 1_000_000 + (i % 10), null);   // all in tick 100_000
    }
    assertThat(recorder.advance(big, 999_999)).isZero();
    int calls = 0;
    int total = 0;
    int handed;
    while ((handed = recorder.advance(big, 1_000_010, 30_000)) > 0) {
      assertThat(handed).isLessThanOrEqualTo(30_000);
      total += handed;
      calls++;
    }
    assertThat(total).isEqualTo(n);
    assertThat(calls).isEqualTo(4);
    assertThat(big.size()).isZero();
    List<String> keys = recorder.keys();
    assertThat(new HashSet<>(keys)).hasSize(n);
    for (int i = 0; i < n; i += 9_973) {
      assertThat(keys.get(i)).isEqualTo("t" + i);   // a tick passed whole: schedule order
    }
  }

  @Test
  void burstOfHundredThousandTimersInOneTickComesOutMillisecondByMillisecondWhenTheClockStopsInsideIt() {
    int n = 100_000;
    TimerWheel<String> big = new TimerWheel<>(10, 0, 6, n);
    for (int i = 0; i < n; i++) {
      big.schedule("t" + i, 1_000_009 - (i % 10), null);   // all in tick 100_000, the latest first
    }
    for (long now = 1_000_000; now <= 1_000_009; now++) {
      int calls = 0;
      while (recorder.advance(big, now, 3_000) > 0) {
        calls++;
      }
      long at = now;
      assertThat(recorder.fired).as("at %d", now).hasSize(n / 10)
          .allSatisfy(f -> assertThat(f.dueAtMs()).isEqualTo(at));
      assertThat(calls).isEqualTo(4);
      assertThat(big.nextExpiryAtMs()).isEqualTo(now == 1_000_009 ? TimerWheel.NO_DEADLINE : now + 1);
      recorder.fired.clear();
    }
    assertThat(big.size()).isZero();
  }

  @Test
  void timersScheduledIntoTheTickTheClockIsInComeOutAtTheirDueMillisecond() {
    recorder.advance(wheel, 1_003);
    wheel.schedule("later", 1_008, null);
    wheel.schedule("soon", 1_004, null);
    recorder.advance(wheel, 1_004);
    assertThat(recorder.takeKeys()).containsExactly("soon");
    wheel.schedule("between", 1_006, null);
    wheel.schedule("now", 1_004, null);
    recorder.advance(wheel, 1_004);
    assertThat(recorder.takeKeys()).containsExactly("now");
    recorder.advance(wheel, 1_007);
    assertThat(recorder.takeKeys()).containsExactly("between");
    wheel.schedule("later", 1_009, null);   // re-armed while ordered by due time: moved, not lost
    recorder.advance(wheel, 1_008);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_009);
    assertThat(recorder.keys()).containsExactly("later");
  }

  @Test
  void aLaterCallWithTheSameNowContinuesWhereALimitedCallStopped() {
    for (int i = 0; i < 10; i++) {
      wheel.schedule("k" + i, 50 + i * 100, null);
    }
    assertThat(recorder.advance(wheel, 2_000, 3)).isEqualTo(3);
    wheel.schedule("new", 940, null);   // due before k9 (950), after the cursor: keeps its own tick
    assertThat(recorder.advance(wheel, 2_000, 100)).isEqualTo(8);
    assertThat(recorder.keys())
        .containsExactly("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "new", "k9");
  }

  @Test
  void handlerCanRescheduleTheKeyItWasGivenToRunAPeriodicTimer() {
    long period = 250;
    wheel.schedule("periodic", 250, "p");
    recorder.then((key, dueAt, value) -> wheel.schedule(key, dueAt + period, value));
    for (long now = 0; now <= 2_000; now += 10) {
      recorder.advance(wheel, now);
    }
    assertThat(recorder.fired).extracting(Recorder.Fired::dueAtMs)
        .containsExactly(250L, 500L, 750L, 1_000L, 1_250L, 1_500L, 1_750L, 2_000L);
    assertThat(recorder.fired).allSatisfy(f -> assertThat(f.nowMs()).isEqualTo(f.dueAtMs()));
    assertThat(wheel.dueAt("periodic")).isEqualTo(2_250);
  }

  @Test
  void keyIsNotPendingWhenTheHandlerGetsIt() {
    wheel.schedule("k", 100, "v");
    List<Boolean> pendingInHandler = new ArrayList<>();
    recorder.then((key, dueAt, value) -> pendingInHandler.add(wheel.contains(key)));
    recorder.advance(wheel, 100);
    assertThat(pendingInHandler).containsExactly(false);
    assertThat(wheel.size()).isZero();
  }

  @Test
  void handlerCanCancelAndRescheduleTimersDueInTheSameTick() {
    for (String k : List.of("a", "b", "c", "d", "e")) {
      wheel.schedule(k, 105, null);
    }
    recorder.then((key, dueAt, value) -> {
      if (key.equals("a")) {
        wheel.cancel("b");                 // next in the slot being drained
        wheel.schedule("d", 500, null);    // later in the same slot, moved out
        wheel.cancel("e");                 // the tail of the slot
        wheel.schedule("e", 106, null);    // back in, at the tail again
      }
    });
    recorder.advance(wheel, 110);
    assertThat(recorder.takeKeys()).containsExactly("a", "c", "e");
    recorder.advance(wheel, 499);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 500);
    assertThat(recorder.keys()).containsExactly("d");
    assertThat(wheel.size()).isZero();
  }

  @Test
  void timerScheduledIntoThePastByTheHandlerIsHandedOutByTheSameAdvanceWithinItsLimit() {
    wheel.schedule("a", 100, null);
    recorder.then((key, dueAt, value) -> {
      if (key.length() < 4) {
        wheel.schedule(key + "+", 0, null);
      }
    });
    assertThat(recorder.advance(wheel, 100, 3)).isEqualTo(3);
    assertThat(recorder.takeKeys()).containsExactly("a", "a+", "a++");
    assertThat(wheel.contains("a+++")).isTrue();
    assertThat(recorder.advance(wheel, 100, 3)).isEqualTo(1);
  }

  @Test
  void handlerCanScheduleFarTimersThatCascadeLater() {
    wheel.schedule("a", 100, null);
    recorder.then((key, dueAt, value) -> {
      if (key.equals("a")) {
        wheel.schedule("far", 100 + 10L * 365 * 24 * 3600 * 1000, null);
      }
    });
    recorder.advance(wheel, 100);
    recorder.advance(wheel, 100 + 10L * 365 * 24 * 3600 * 1000 - 1);
    assertThat(recorder.takeKeys()).containsExactly("a");
    recorder.advance(wheel, 100 + 10L * 365 * 24 * 3600 * 1000);
    assertThat(recorder.keys()).containsExactly("far");
  }

  @Test
  void advanceFromInsideTheHandlerIsRejected() {
    wheel.schedule("a", 100, null);
    recorder.then((key, dueAt, value) -> wheel.advance(200, (k, d, v) -> { }, 10));
    assertThatThrownBy(() -> recorder.advance(wheel, 100)).isInstanceOf(IllegalStateException.class);
    assertThat(wheel.size()).isZero();
  }

  @Test
  void handlerThatThrowsLosesOnlyTheTimerItWasGivenAndTheNextCallContinues() {
    wheel.schedule("boom", 100, null);
    wheel.schedule("ok", 100, null);
    Set<String> thrown = new HashSet<>();
    recorder.then((key, dueAt, value) -> {
      if (thrown.add(key) && key.equals("boom")) {
        throw new IllegalStateException("handler failed");
      }
    });
    assertThatThrownBy(() -> recorder.advance(wheel, 100)).hasMessage("handler failed");
    assertThat(wheel.contains("boom")).isFalse();
    assertThat(wheel.size()).isEqualTo(1);
    recorder.advance(wheel, 100);
    assertThat(recorder.keys()).containsExactly("boom", "ok");
  }
}
