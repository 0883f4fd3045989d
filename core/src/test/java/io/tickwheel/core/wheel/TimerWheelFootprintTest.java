package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.Reference;
import org.junit.jupiter.api.Test;

/**
 * Heap cost of pending timers, measured as the used-heap delta after full collections (keys and the shared value
 * are allocated before the baseline, so they are not counted). JOL's {@code GraphLayout} gives the exact figure
 * (32 bytes of entry arrays per id, up to half of them spare after growth, plus 16 to 32 bytes of key index);
 * this coarser measure is robust enough to guard the 120 byte budget.
 */
class TimerWheelFootprintTest {

  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 2; i++) {
      System.gc();
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }

  @Test
  void pendingTimerCostsAtMost120BytesBeyondItsKeyAndValue() {
    int n = 1_000_000;
    String[] keys = new String[n];
    for (int i = 0; i < n; i++) {
      keys[i] = "timer-" + i;
    }
    Object value = new Object();
    long start = 1_704_067_200_000L;
    long before = usedAfterGc();

    TimerWheel<Object> wheel = new TimerWheel<>(1, start);
    for (int i = 0; i < n; i++) {
      // Spread over ten years: every level is in use.
      wheel.schedule(keys[i], start + (i * 1_051_200_000L) % (10L * 365 * 24 * 3600 * 1000), value);
    }
    long after = usedAfterGc();
    double perTimer = (after - before) / (double) n;
    System.out.printf("%d pending timers: %.1f bytes each beyond key and value%n", n, perTimer);

    assertThat(wheel.size()).isEqualTo(n);
    assertThat(wheel.levels()).isGreaterThanOrEqualTo(7);
    assertThat(perTimer).as("bytes per pending timer").isBetween(40.0, 120.0);
    Reference.reachabilityFence(wheel);
    Reference.reachabilityFence(keys);
  }
}
