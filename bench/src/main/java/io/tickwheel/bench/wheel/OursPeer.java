package io.tickwheel.bench.wheel;

import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.core.wheel.TimerWheel;

/**
 * tickwheel's {@link TimerWheel}, driven directly on the benchmark thread, as its owner thread drives it.
 *
 * <p>Time is virtual (the wheel never reads a clock): it starts at a fixed epoch and stays there during the
 * schedule/cancel/churn workloads (all their timers are hours away, so advancing would hand out nothing);
 * the drain workload advances it. Tick 10 ms (the default). A re-arm is one {@code schedule} call (upsert), which
 * postpones lazily when the new due time is not earlier than the old one (see {@code TimerWheel}): the timer is
 * re-filed when its old slot comes round, i.e. in {@code advance}, which only the drain workload calls.
 */
public final class OursPeer implements TimerPeer {

  /** The wheel's start time: a fixed epoch millisecond, so runs are reproducible. */
  static final long START_MS = 1_700_000_000_000L;

  private static final Object VALUE = Boolean.TRUE;

  private final TimerWheel<Object> wheel = new TimerWheel<>(TimerWheel.DEFAULT_TICK_MS, START_MS);
  private final Counter counter = new Counter();
  private long drainUntilMs;

  @Override
  public String name() {
    return "ours";
  }

  /** The wheel itself (for the smoke test and the bytes-per-timer measurement). */
  public TimerWheel<Object> wheel() {
    return wheel;
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    wheel.schedule(key, wheel.currentTimeMs() + delayMs, VALUE);
  }

  @Override
  public boolean cancel(int i, String key) {
    return wheel.cancel(key);
  }

  @Override
  public long size() {
    return wheel.size();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) {
    long base = wheel.currentTimeMs();
    for (int i = 0; i < n; i++) {
      wheel.schedule(fixtures.key(i), base + fixtures.drainOffsetMs(i), VALUE);
    }
    drainUntilMs = base + Fixtures.DRAIN_WINDOW_MS + TimerWheel.DEFAULT_TICK_MS;
  }

  @Override
  public int drainDue() {
    counter.fired = 0;
    wheel.advance(drainUntilMs, counter, Integer.MAX_VALUE);
    return counter.fired;
  }

  @Override
  public void close() {
    // no threads
  }

  private static final class Counter implements ExpiryHandler<Object> {
    int fired;

    @Override
    public void onExpiry(String key, long dueAtMs, Object value) {
      fired++;
    }
  }
}
