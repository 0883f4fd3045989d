package io.tickwheel.bench.wheel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.Timer;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's {@link SystemTimer} (hierarchical {@code TimingWheel}s of {@code TimerTaskList} buckets in a
 * {@code DelayQueue}; tick 10 ms, Kafka's default wheel size 20), keyed.
 *
 * <p>Pending workloads: wrapped in Kafka's {@link SystemTimerReaper}, whose thread calls
 * {@code advanceClock(200)} in a loop as in the broker; what is measured is the caller's {@code add} (read lock,
 * bucket append under the bucket's monitor, a {@code DelayQueue} offer when a bucket gets a new expiration) and
 * {@code TimerTask.cancel} (monitors on task and bucket) plus the key map.
 *
 * <p>Drain workload: no reaper; the benchmark thread calls {@code advanceClock(0)} itself (what the reaper does)
 * until every due task has run; Kafka runs expired tasks on its own single-thread executor, as always.
 *
 * <p>Keys: a {@link ConcurrentHashMap}{@code <String, KeyedTask>} (expiries run on Kafka's executor and remove their
 * key). A Kafka {@code TimerTask} can be added once, so a re-arm is a new task, {@code add}, {@code put}, and
 * {@code cancel} of the old task.
 */
public final class KafkaPeer implements TimerPeer {

  static final long TICK_MS = 10;
  static final int WHEEL_SIZE = 20;
  private static final long LEAD_MS = 50;

  private final Timer timer;
  private final ConcurrentHashMap<String, KeyedTask> tasks;
  private final AtomicInteger fired = new AtomicInteger();
  private int expected;

  /**
   * @param reaper {@code true}: Kafka's reaper thread drives the clock (pending workloads); {@code false}: the
   *               caller drives it ({@link #drainDue})
   */
  public KafkaPeer(boolean reaper, int expectedTimers) {
    SystemTimer systemTimer = new SystemTimer("bench", TICK_MS, WHEEL_SIZE, Time.SYSTEM.hiResClockMs());
    timer = reaper ? new SystemTimerReaper("bench-reaper", systemTimer) : systemTimer;
    tasks = new ConcurrentHashMap<>(Math.max(16, expectedTimers));
  }

  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    KeyedTask task = new KeyedTask(key, delayMs);
    timer.add(task);
    KeyedTask old = tasks.put(key, task);
    if (old != null) {
      old.cancel();
    }
  }

  @Override
  public boolean cancel(int i, String key) {
    KeyedTask t = tasks.remove(key);
    if (t == null) {
      return false;
    }
    t.cancel();
    return true;
  }

  @Override
  public long size() {
    return tasks.size();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) throws InterruptedException {
    fired.set(0);
    expected = n;
    long base = Time.SYSTEM.hiResClockMs() + LEAD_MS;
    for (int i = 0; i < n; i++) {
      schedule(i, fixtures.key(i), base + fixtures.drainOffsetMs(i) - Time.SYSTEM.hiResClockMs());
    }
    long until = base + Fixtures.DRAIN_WINDOW_MS + 2 * TICK_MS;
    long left;
    while ((left = until - Time.SYSTEM.hiResClockMs()) > 0) {
      TimeUnit.MILLISECONDS.sleep(left);
    }
  }

  @Override
  public int drainDue() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (fired.get() < expected) {
      if (!timer.advanceClock(0)) {
        Thread.onSpinWait();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("only " + fired.get() + " of " + expected + " timers fired within 60 s");
      }
    }
    return fired.get();
  }

  @Override
  public void close() {
    try {
      timer.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing Kafka's timer", e);
    }
  }

  private final class KeyedTask extends TimerTask {
    private final String key;

    KeyedTask(String key, long delayMs) {
      super(delayMs);
      this.key = key;
    }

    @Override
    public void run() {
      tasks.remove(key, this);
      fired.incrementAndGet();
    }
  }
}
