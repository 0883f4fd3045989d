package io.tickwheel.bench.wheel;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Netty's {@link HashedWheelTimer} (tick 10 ms, 512 buckets: Netty's default wheel with our tick), keyed.
 *
 * <p>It owns a worker thread that ticks in real time: {@code newTimeout} and {@code Timeout.cancel} only
 * enqueue (lock-free MPSC queues) and the worker moves timeouts into buckets, removes cancelled ones and fires
 * due ones. What the benchmarks measure is the caller's side ({@code newTimeout}, {@code cancel}, the key
 * map) while the worker runs on the other core.
 *
 * <p>Keys: a {@link ConcurrentHashMap}{@code <String, Timeout>}. Concurrent because expiries happen on the worker
 * thread, which must remove its key ({@code remove(key, timeout)}); each timeout's task carries its key. A
 * re-arm is {@code newTimeout}, {@code put} (one lookup) and {@code cancel} of the old timeout.
 *
 * <p>Drain: see {@link Gate}.
 */
public final class NettyPeer implements TimerPeer {

  static final long TICK_MS = 10;
  static final int TICKS_PER_WHEEL = 512;
  private static final long LEAD_MS = 200;

  private final HashedWheelTimer timer;
  private final ConcurrentHashMap<String, Timeout> timeouts;
  private final AtomicInteger fired = new AtomicInteger();
  private Gate gate;
  private int expected;

  public NettyPeer(int expectedTimers) {
    timer = new HashedWheelTimer(Gate.daemon("netty-wheel"), TICK_MS, TimeUnit.MILLISECONDS, TICKS_PER_WHEEL,
        false, -1);
    timer.start();
    timeouts = new ConcurrentHashMap<>(Math.max(16, expectedTimers));
  }

  @Override
  public String name() {
    return "netty";
  }

  /** The timer (for the bytes-per-timer measurement). */
  public HashedWheelTimer timer() {
    return timer;
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    arm(key, timer.newTimeout(new KeyedTask(key), delayMs, TimeUnit.MILLISECONDS));
  }

  private void arm(String key, Timeout timeout) {
    Timeout old = timeouts.put(key, timeout);
    if (old != null) {
      old.cancel();
    }
  }

  @Override
  public boolean cancel(int i, String key) {
    Timeout t = timeouts.remove(key);
    return t != null && t.cancel();
  }

  @Override
  public long size() {
    return timeouts.size();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) throws InterruptedException {
    fired.set(0);
    expected = n;
    Gate g = new Gate();
    gate = g;
    long base = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEAD_MS);
    // the gate is due two ticks before the first timer: the worker blocks in it with all n in later buckets
    timer.newTimeout(t -> g.hold(), base - TimeUnit.MILLISECONDS.toNanos(2 * TICK_MS) - System.nanoTime(),
        TimeUnit.NANOSECONDS);
    for (int i = 0; i < n; i++) {
      String key = fixtures.key(i);
      long dueNanos = base + TimeUnit.MILLISECONDS.toNanos(fixtures.drainOffsetMs(i));
      arm(key, timer.newTimeout(new KeyedTask(key), dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS));
    }
    g.awaitHeldUntil(base + TimeUnit.MILLISECONDS.toNanos(Fixtures.DRAIN_WINDOW_MS + 2 * TICK_MS));
  }

  @Override
  public int drainDue() {
    return gate.openAndAwait(fired, expected);
  }

  @Override
  public void close() {
    timer.stop();
  }

  private final class KeyedTask implements TimerTask {
    private final String key;

    KeyedTask(String key) {
      this.key = key;
    }

    @Override
    public void run(Timeout timeout) {
      timeouts.remove(key, timeout);
      fired.incrementAndGet();
    }
  }
}
