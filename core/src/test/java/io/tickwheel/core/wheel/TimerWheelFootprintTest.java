package io.tickwheel.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.Reference;
import org.junit.jupiter.api.Test;

/**
 * Heap cost of pending timers, measured as the used-heap delta after full collections. The exact figure: 28 bytes of
 * entry pages per id (plus 4 for a value kept by reference), 16 to 32 bytes of key index, and the record of the
 * key's characters and the encoded value, rounded up to 8 bytes; this coarser measure is robust enough to guard the
 * budgets.
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

  /** A codec of a dozen bytes, about what the server's resident timers take. */
  private static final class TwelveBytes implements ValueCodec<Object> {
    @Override
    public int encodedLength(Object value, long dueAtMs) {
      return 12;
    }

    @Override
    public void encode(Object value, long dueAtMs, byte[] into, int offset) {
      into[offset] = 1;
    }

    @Override
    public Object decode(String key, long dueAtMs, byte[] from, int offset) {
      return key;
    }
  }

  /** A cluster node holds a wheel per partition it owns (up to 4,096), most of them empty. */
  @Test
  void anEmptyWheelCostsAtMost4KiB() {
    int n = 1_000;
    long start = 1_704_067_200_000L;
    long before = usedAfterGc();
    java.util.List<TimerWheel<Object>> wheels = new java.util.ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      wheels.add(new TimerWheel<>(10, start, TimerWheel.DEFAULT_SLOT_BITS_PER_LEVEL, 0, new TwelveBytes()));
    }
    long after = usedAfterGc();
    double perWheel = (after - before) / (double) n;
    System.out.printf("%d empty wheels: %.0f bytes each%n", n, perWheel);
    assertThat(perWheel).as("bytes per empty wheel").isLessThan(4 * 1024.0);
    wheels.get(0).schedule("one", start + 100, "x");
    wheels.get(0).cancel("one");
    wheels.get(0).schedule("two", start + 100, "x");
    assertThat(wheels.get(0).size()).isEqualTo(1);
    Reference.reachabilityFence(wheels);
  }

  @Test
  void encodedTimerWithAShortKeyCostsAtMost100BytesAllIn() {
    int n = 1_000_000;
    long start = 1_704_067_200_000L;
    Object value = new Object();
    long before = usedAfterGc();

    TimerWheel<Object> wheel = new TimerWheel<>(10, start, 6, 0, new TwelveBytes());
    for (int i = 0; i < n; i++) {
      // 20-character keys, made here and dropped: the wheel keeps its own copy of their characters
      wheel.schedule(String.format("hb-%017d", i), start + 300_000 + i % 300_000, value);
    }
    long after = usedAfterGc();
    double perTimer = (after - before) / (double) n;
    System.out.printf("%d pending encoded timers: %.1f bytes each, key and value included%n", n, perTimer);

    assertThat(wheel.size()).isEqualTo(n);
    assertThat(wheel.get("hb-00000000000000042")).isEqualTo("hb-00000000000000042");
    assertThat(perTimer).as("bytes per pending timer").isBetween(40.0, 100.0);
    Reference.reachabilityFence(wheel);
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
