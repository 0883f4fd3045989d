package io.tickwheel.server.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WakeUpTest {

  static final long T = 1_700_000_000_000L;   // epoch ms

  @Test
  void aWakeUpIsSetForTheFirstMicrosecondOfTheDueMillisecondNotAWholeMillisecondFromNow() {
    assertThat(WakeUp.delayUs(T + 1, T * 1_000 + 900)).isEqualTo(100);       // 0.9 ms into T: 100 µs, not 1 ms
    assertThat(WakeUp.delayUs(T + 5, T * 1_000)).isEqualTo(5_000);
    assertThat(WakeUp.delayUs(T + 5, T * 1_000 + 999)).isEqualTo(4_001);
  }

  @Test
  void aWakeUpSleepsAtLeastTwentyMicrosecondsAndAtMostOneSecond() {
    assertThat(WakeUp.delayUs(T, T * 1_000 + 990)).isEqualTo(WakeUp.MIN_DELAY_US);   // already due
    assertThat(WakeUp.delayUs(T + 1, T * 1_000 + 995)).isEqualTo(WakeUp.MIN_DELAY_US);
    assertThat(WakeUp.delayUs(T + 3_600_000, T * 1_000)).isEqualTo(1_000_000);
  }

  @Test
  void aPlainMillisecondClockCountsAsTheStartOfItsMillisecond() {
    assertThat(FineClock.micros(() -> T)).isEqualTo(T * 1_000);
    FineClock fine = new FineClock() {
      @Override
      public long getAsLong() {
        return T;
      }

      @Override
      public long nowMicros() {
        return T * 1_000 + 420;
      }
    };
    assertThat(FineClock.micros(fine)).isEqualTo(T * 1_000 + 420);
    long sys = FineClock.SYSTEM.nowMicros();
    assertThat(sys / 1_000).isBetween(FineClock.SYSTEM.getAsLong() - 5, FineClock.SYSTEM.getAsLong());
  }
}
