package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimerWheelSchedulingTest {

  private final TimerWheel<String> wheel = new TimerWheel<>(10, 1_000);
  private final Recorder<String> recorder = new Recorder<>();

  @Test
  void tickBelowOneIsRejectedNamingTickMsAndTheValue() {
    assertThatThrownBy(() -> new TimerWheel<String>(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tickMs")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> new TimerWheel<String>(-5, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tickMs")
        .hasMessageContaining("-5");
  }

  @Test
  void slotBitsAndCapacityOutOfRangeAreRejectedNamingTheArgument() {
    assertThatThrownBy(() -> new TimerWheel<String>(1, 0, 0, 16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slotBitsPerLevel").hasMessageContaining("0");
    assertThatThrownBy(() -> new TimerWheel<String>(1, 0, 7, 16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slotBitsPerLevel").hasMessageContaining("7");
    assertThatThrownBy(() -> new TimerWheel<String>(1, 0, 6, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialCapacity").hasMessageContaining("-1");
  }

  @Test
  void nullKeyIsRejectedNamingKeyEverywhere() {
    assertThatThrownBy(() -> wheel.schedule(null, 5, "v")).isInstanceOf(NullPointerException.class).hasMessage("key");
    assertThatThrownBy(() -> wheel.cancel(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
    assertThatThrownBy(() -> wheel.get(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
    assertThatThrownBy(() -> wheel.dueAt(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
    assertThatThrownBy(() -> wheel.contains(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
    assertThat(wheel.size()).isZero();
  }

  @Test
  void nullHandlerAndNegativeLimitAreRejected() {
    assertThatThrownBy(() -> wheel.advance(2_000, null, 1))
        .isInstanceOf(NullPointerException.class).hasMessage("handler");
    assertThatThrownBy(() -> wheel.advance(2_000, recorder, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit").hasMessageContaining("-1");
  }

  @Test
  void newWheelIsEmptyAtItsStartTime() {
    assertThat(wheel.tickMs()).isEqualTo(10);
    assertThat(wheel.currentTimeMs()).isEqualTo(1_000);
    assertThat(wheel.size()).isZero();
    assertThat(wheel.earliestDueAt()).isEqualTo(TimerWheel.NO_DEADLINE);
    assertThat(wheel.nextExpiryAtMs()).isEqualTo(TimerWheel.NO_DEADLINE);
    assertThat(wheel.dueAt("x")).isEqualTo(TimerWheel.NO_DEADLINE);
    assertThat(wheel.get("x")).isNull();
    assertThat(new TimerWheel<String>(TimerWheel.DEFAULT_TICK_MS, 0).tickMs()).isEqualTo(10);
  }

  @Test
  void scheduleOfANewKeyReturnsTrueAndMakesItPending() {
    assertThat(wheel.schedule("a", 1_500, "va")).isTrue();
    assertThat(wheel.size()).isEqualTo(1);
    assertThat(wheel.contains("a")).isTrue();
    assertThat(wheel.get("a")).isEqualTo("va");
    assertThat(wheel.dueAt("a")).isEqualTo(1_500);
  }

  @Test
  void reschedulingAPendingKeyReplacesDueTimeAndValueAndNeverFiresTheOldDueTime() {
    wheel.schedule("a", 1_050, "old");
    assertThat(wheel.schedule("a", 1_200, "new")).isFalse();
    assertThat(wheel.size()).isEqualTo(1);
    assertThat(wheel.dueAt("a")).isEqualTo(1_200);

    recorder.advance(wheel, 1_199);
    assertThat(recorder.fired).isEmpty();
    recorder.advance(wheel, 1_200);
    assertThat(recorder.fired).containsExactly(new Recorder.Fired("a", 1_200, "new", 1_200));
    recorder.advance(wheel, 5_000);
    assertThat(recorder.fired).hasSize(1);
  }

  @Test
  void reschedulingToAnEarlierTimeFiresAtTheEarlierTime() {
    wheel.schedule("a", 900_000, "v");
    wheel.schedule("a", 1_030, "v");
    recorder.advance(wheel, 1_030);
    assertThat(recorder.keys()).containsExactly("a");
    assertThat(wheel.size()).isZero();
  }

  @Test
  void cancelledTimerNeverFiresAndCancelReportsWhetherItWasPending() {
    wheel.schedule("a", 1_050, "v");
    wheel.schedule("b", 1_050, "v");
    assertThat(wheel.cancel("a")).isTrue();
    assertThat(wheel.cancel("a")).isFalse();
    assertThat(wheel.cancel("never")).isFalse();
    assertThat(wheel.contains("a")).isFalse();
    assertThat(wheel.dueAt("a")).isEqualTo(TimerWheel.NO_DEADLINE);

    recorder.advance(wheel, 10_000);
    assertThat(recorder.keys()).containsExactly("b");
    assertThat(wheel.size()).isZero();
  }

  @Test
  void nullValueIsAllowedAndContainsTellsItApartFromAbsence() {
    wheel.schedule("a", 1_050, null);
    assertThat(wheel.get("a")).isNull();
    assertThat(wheel.contains("a")).isTrue();
    recorder.advance(wheel, 1_050);
    assertThat(recorder.fired).containsExactly(new Recorder.Fired("a", 1_050, null, 1_050));
  }

  @Test
  void keysWithCollidingHashCodesAreKeptApart() {
    // "Aa" and "BB" share a hash code; so do all their concatenations of equal length.
    String[] keys = {"AaAa", "AaBB", "BBAa", "BBBB"};
    for (int i = 0; i < keys.length; i++) {
      wheel.schedule(keys[i], 1_100 + i * 10, keys[i]);
    }
    wheel.cancel("AaBB");
    assertThat(wheel.get("BBAa")).isEqualTo("BBAa");
    assertThat(wheel.dueAt("BBBB")).isEqualTo(1_130);
    recorder.advance(wheel, 2_000);
    assertThat(recorder.keys()).containsExactly("AaAa", "BBAa", "BBBB");
  }

  @Test
  void keysAreComparedByValueNotIdentity() {
    wheel.schedule(new String("k"), 1_100, "first");
    assertThat(wheel.schedule(new String("k"), 1_200, "second")).isFalse();
    assertThat(wheel.cancel(new String("k"))).isTrue();
    assertThat(wheel.size()).isZero();
  }
}
