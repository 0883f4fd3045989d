package io.tickwheel.bench.wheel;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * Agrona's {@link DeadlineTimerWheel} with no keys: the reference for what the bare wheel costs. Timer
 * {@code i}'s id is kept in a {@code long[]} indexed by {@code i} (the caller's handle storage; the key string
 * is ignored), and an expiry only counts. Same geometry and virtual time as {@link AgronaPeer}.
 */
public final class AgronaRawPeer implements TimerPeer {

  private static final long NONE = DeadlineTimerWheel.NULL_DEADLINE;

  private final DeadlineTimerWheel wheel;
  private final long[] ids;
  private final Expiry expiry = new Expiry();
  private long nowMs = OursPeer.START_MS;
  private long drainUntilMs;

  /**
   * @param ticksPerWheel {@link AgronaPeer#PENDING_TICKS_PER_WHEEL} or {@link AgronaPeer#DRAIN_TICKS_PER_WHEEL}
   * @param timers        number of timer indices ({@code i < timers})
   */
  public AgronaRawPeer(int ticksPerWheel, int timers) {
    wheel = new DeadlineTimerWheel(TimeUnit.MILLISECONDS, nowMs, AgronaPeer.TICK_MS, ticksPerWheel);
    ids = new long[timers];
    Arrays.fill(ids, NONE);
  }

  @Override
  public String name() {
    return "agronaRaw";
  }

  @Override
  public void schedule(int i, String key, long delayMs) {
    long old = ids[i];
    ids[i] = wheel.scheduleTimer(nowMs + delayMs);
    if (old != NONE) {
      wheel.cancelTimer(old);
    }
  }

  @Override
  public boolean cancel(int i, String key) {
    long id = ids[i];
    if (id == NONE) {
      return false;
    }
    ids[i] = NONE;
    return wheel.cancelTimer(id);
  }

  @Override
  public long size() {
    return wheel.timerCount();
  }

  @Override
  public void prepareDue(Fixtures fixtures, int n) {
    for (int i = 0; i < n; i++) {
      // the drain hands out ids, not indices: the slots are not kept (no re-arm or cancel follows)
      wheel.scheduleTimer(nowMs + fixtures.drainOffsetMs(i));
    }
    drainUntilMs = nowMs + Fixtures.DRAIN_WINDOW_MS + AgronaPeer.TICK_MS;
  }

  @Override
  public int drainDue() {
    expiry.fired = 0;
    nowMs = drainUntilMs;
    do {
      wheel.poll(nowMs, expiry, Integer.MAX_VALUE);
    } while (wheel.currentTickTime() <= nowMs);
    return expiry.fired;
  }

  @Override
  public void close() {
    // no threads
  }

  private static final class Expiry implements DeadlineTimerWheel.TimerHandler {
    int fired;

    @Override
    public boolean onTimerExpiry(TimeUnit timeUnit, long now, long timerId) {
      fired++;
      return true;
    }
  }
}
