package io.tickwheel.bench.wheel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} (one thread; a binary heap under a lock), keyed.
 *
 * <p>{@code setRemoveOnCancelPolicy(true)}: a cancelled task leaves the heap at once (O(log n)) instead of
 * staying until its due time, which for re-armed far timers would grow the heap without bound (the default
 * policy). What is measured is the caller's {@code schedule}/{@code cancel} plus the key map, while the
 * executor's thread waits for the earliest task.
 *
 * <p>Keys: a {@link ConcurrentHashMap}{@code <String, KeyedTask>} (expiries run on the executor's thread and
 * remove their key); each task carries its key and its future. A re-arm is {@code schedule}, {@code put} and
 * {@code cancel(false)} of the old future.
 *
 * <p>Drain: see {@link Gate}.
 */
public final class StpePeer implements TimerPeer {

  private static final long LEAD_MS = 200;

  private final ScheduledThreadPoolExecutor executor;
  private final ConcurrentHashMap<String, KeyedTask> tasks;
  private final AtomicInteger fired = new AtomicInteger();
  private Gate gate;
  private int expected;

  public StpePeer(int expectedTimers) {
    executor = new ScheduledThreadPoolExecutor(1, Gate.daemon("stpe-timer"));
    executor.setRemoveOnCancelPolicy(true);
    executor.prestartAllCoreThreads();
    tasks = new ConcurrentHashMap<>(Math.max(16, expectedTimers));
  }

  @Override
  public String name() {
    return "stpe";
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    arm(key, delayMs, TimeUnit.MILLISECONDS);
  }

  private void arm(String key, long delay, TimeUnit unit) {
    KeyedTask task = new KeyedTask(key);
    task.future = executor.schedule(task, delay, unit);
    KeyedTask old = tasks.put(key, task);
    if (old != null) {
      old.future.cancel(false);
    }
  }

  @Override
  public boolean cancel(int i, String key) {
    KeyedTask t = tasks.remove(key);
    return t != null && t.future.cancel(false);
  }

  @Override
  public long size() {
    return tasks.size();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) throws InterruptedException {
    fired.set(0);
    expected = n;
    Gate g = new Gate();
    gate = g;
    long base = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEAD_MS);
    executor.schedule(g::hold, base - TimeUnit.MILLISECONDS.toNanos(5) - System.nanoTime(), TimeUnit.NANOSECONDS);
    for (int i = 0; i < n; i++) {
      long dueNanos = base + TimeUnit.MILLISECONDS.toNanos(fixtures.drainOffsetMs(i));
      arm(fixtures.key(i), dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }
    g.awaitHeldUntil(base + TimeUnit.MILLISECONDS.toNanos(Fixtures.DRAIN_WINDOW_MS + 5));
  }

  @Override
  public int drainDue() {
    return gate.openAndAwait(fired, expected);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  private final class KeyedTask implements Runnable {
    private final String key;
    ScheduledFuture<?> future;

    KeyedTask(String key) {
      this.key = key;
    }

    @Override
    public void run() {
      tasks.remove(key, this);
      fired.incrementAndGet();
    }
  }
}
