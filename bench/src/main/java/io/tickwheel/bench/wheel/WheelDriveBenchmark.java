package io.tickwheel.bench.wheel;

import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.core.wheel.TimerWheel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Our wheel driven the way the server drives it, in virtual time: wake at {@link TimerWheel#nextExpiryAtMs()},
 * {@code advance} to that instant, repeat. {@code pending} timers (default 1M) are due spread uniformly at random
 * over a window of {@code windowMs} (default 100 s: 10,000 firings per virtual second at 1M); each timer handed
 * out is re-scheduled one window after its due time (a fixed-rate timer), so the wheel holds {@code pending}
 * timers throughout. One op = one timer handed out; the cost includes the wake-ups that hand out nothing, the
 * cursor moves, the cascades and the re-schedule. Only the wheel's public API of every version since the lazy
 * postponement is used, so the same source measures an older wheel for a before/after comparison.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WheelDriveBenchmark {

  /** Timers handed out per invocation. */
  public static final int BATCH = 1_000;

  /** A wheel (tick 10 ms) holding {@code pending} timers spread over {@code windowMs}. */
  @State(Scope.Thread)
  public static class DriveState implements ExpiryHandler<Object> {
    @Param({"1000000"})
    public int pending;

    @Param({"100000"})
    public long windowMs;

    public TimerWheel<Object> wheel;
    /** Wake-ups (calls of advance) so far, to report wake-ups per timer. */
    public long wakeUps;
    public long handedOut;
    private static final Object VALUE = new Object();

    @Setup(Level.Trial)
    public void fill() {
      Fixtures f = new Fixtures(pending, pending);
      long start = 1_000_000_000L;
      wheel = new TimerWheel<>(TimerWheel.DEFAULT_TICK_MS, start, TimerWheel.DEFAULT_SLOT_BITS_PER_LEVEL, pending);
      java.util.SplittableRandom r = new java.util.SplittableRandom(42);
      for (int i = 0; i < pending; i++) {
        wheel.schedule(f.key(i), start + 1 + r.nextLong(windowMs), VALUE);
      }
    }

    @Override
    public void onExpiry(String key, long dueAtMs, Object value) {
      handedOut++;
      wheel.schedule(key, dueAtMs + windowMs, value);
    }
  }

  /** Wake and advance until {@value #BATCH} timers have been handed out. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long drive(DriveState s) {
    TimerWheel<Object> wheel = s.wheel;
    int fired = 0;
    while (fired < BATCH) {
      long next = Math.max(wheel.nextExpiryAtMs(), wheel.currentTimeMs());
      fired += wheel.advance(next, s, BATCH - fired);
      s.wakeUps++;
    }
    if (wheel.size() != s.pending) {
      throw new IllegalStateException(wheel.size() + " pending, expected " + s.pending);
    }
    return s.wakeUps;
  }
}
