package io.tickwheel.bench.wheel;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Object2LongHashMap;

/**
 * Agrona's {@link DeadlineTimerWheel}, keyed: driven directly on the benchmark thread with virtual time
 * (like ours), plus what it needs to be a keyed timer.
 *
 * <ul>
 *   <li>key &rarr; timer id: Agrona's own {@link Object2LongHashMap}{@code <String>} (primitive long values, no
 *       boxing), sized up front;</li>
 *   <li>timer id &rarr; key, so that an expiry can say which key fired: a {@code String[ticksPerWheel][]} indexed
 *       by the two halves of the id (spoke, index in spoke), grown on demand. This leans on the id layout of
 *       {@code DeadlineTimerWheel} ({@code spoke << 32 | index}) and is the cheapest reverse map there is: no
 *       hashing, one array store per schedule.</li>
 * </ul>
 *
 * <p>A re-arm schedules the new deadline, swaps the id in the map (one lookup) and cancels the old id.
 *
 * <p>Wheel geometry, chosen per workload because Agrona's per-spoke arrays all grow to the fullest spoke:
 * tick 8 ms (a power of two is required; closest to our 10 ms); {@value #PENDING_TICKS_PER_WHEEL} spokes for the
 * pending workloads (1 M timers spread over an hour: ~16 per spoke, so the linear free-slot search in
 * {@code scheduleTimer} stays short) and {@value #DRAIN_TICKS_PER_WHEEL} spokes for the drain workload (100 k
 * timers within 100 ms: a wide wheel would multiply the ~8 k-deep spokes by its width).
 */
public final class AgronaPeer implements TimerPeer {

  static final long TICK_MS = 8;
  static final int PENDING_TICKS_PER_WHEEL = 1 << 16;
  static final int DRAIN_TICKS_PER_WHEEL = 1 << 7;
  private static final long MISSING = DeadlineTimerWheel.NULL_DEADLINE;
  private static final float LOAD_FACTOR = 0.65f; // Agrona's default

  private final DeadlineTimerWheel wheel;
  private final Object2LongHashMap<String> idsByKey;
  private final String[][] keysBySpoke;
  private final Expiry expiry = new Expiry();
  private long nowMs = OursPeer.START_MS;
  private long drainUntilMs;

  /**
   * @param ticksPerWheel  {@link #PENDING_TICKS_PER_WHEEL} or {@link #DRAIN_TICKS_PER_WHEEL}
   * @param expectedTimers to size the key map
   */
  public AgronaPeer(int ticksPerWheel, int expectedTimers) {
    wheel = new DeadlineTimerWheel(TimeUnit.MILLISECONDS, nowMs, TICK_MS, ticksPerWheel);
    idsByKey = new Object2LongHashMap<>((int) (Math.max(16, expectedTimers) / LOAD_FACTOR) + 1, LOAD_FACTOR, MISSING);
    keysBySpoke = new String[ticksPerWheel][];
  }

  @Override
  public String name() {
    return "agrona";
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    long id = wheel.scheduleTimer(nowMs + delayMs);
    remember(id, key);
    long old = idsByKey.put(key, id);
    if (old != MISSING) {
      wheel.cancelTimer(old);
      forget(old);
    }
  }

  @Override
  public boolean cancel(int i, String key) {
    long id = idsByKey.removeKey(key);
    if (id == MISSING) {
      return false;
    }
    forget(id);
    return wheel.cancelTimer(id);
  }

  @Override
  public long size() {
    return idsByKey.size();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) {
    for (int i = 0; i < n; i++) {
      schedule(i, fixtures.key(i), fixtures.drainOffsetMs(i));
    }
    drainUntilMs = nowMs + Fixtures.DRAIN_WINDOW_MS + TICK_MS;
  }

  @Override
  public int drainDue() {
    expiry.fired = 0;
    nowMs = drainUntilMs;
    // poll hands out (at most) one spoke per call and then moves to the next tick once that tick has passed:
    // call it until the wheel's current tick is the one that contains now.
    do {
      wheel.poll(nowMs, expiry, Integer.MAX_VALUE);
    } while (wheel.currentTickTime() <= nowMs);
    return expiry.fired;
  }

  @Override
  public void close() {
    // no threads
  }

  private void remember(long id, String key) {
    int spoke = (int) (id >>> 32);
    int index = (int) id;
    String[] keys = keysBySpoke[spoke];
    if (keys == null) {
      keys = keysBySpoke[spoke] = new String[Math.max(16, Integer.highestOneBit(index) << 1)];
    } else if (index >= keys.length) {
      keys = keysBySpoke[spoke] = Arrays.copyOf(keys, Integer.highestOneBit(index) << 1);
    }
    keys[index] = key;
  }

  private void forget(long id) {
    keysBySpoke[(int) (id >>> 32)][(int) id] = null;
  }

  private String keyOf(long id) {
    return keysBySpoke[(int) (id >>> 32)][(int) id];
  }

  private final class Expiry implements DeadlineTimerWheel.TimerHandler {
    int fired;

    @Override
    public boolean onTimerExpiry(TimeUnit timeUnit, long now, long timerId) {
      String key = keyOf(timerId);
      forget(timerId);
      idsByKey.removeKey(key);
      fired++;
      return true;
    }
  }
}
