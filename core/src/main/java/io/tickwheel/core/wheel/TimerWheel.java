package io.tickwheel.core.wheel;

/**
 * A hierarchical timing wheel keyed by string (Varghese &amp; Lauck; in the spirit of Kafka's
 * {@code TimingWheel} and the Linux timer wheel).
 *
 * <p><b>Not thread safe.</b> One owner thread creates, mutates and advances a wheel; every other
 * thread routes its requests to that owner (in tickwheel: the verticle's event loop).
 *
 * <p><b>Time.</b> The wheel never reads a clock: the owner passes the current time (epoch
 * milliseconds) to {@link #advance}. All times are epoch milliseconds.
 *
 * <p><b>Contract.</b>
 * <ul>
 *   <li>A timer is handed out only by an {@code advance(now, …)} with {@code now >= dueAt}: never early.</li>
 *   <li>Once the wheel has been advanced to {@code now >= dueAt + tickMs}, the timer has been handed out
 *       (unless the {@code limit} of that call was exhausted: then it is handed out by the next calls).</li>
 *   <li>Timers are handed out in due-tick order across ticks; within one tick, see the implementation notes.</li>
 *   <li>Keys are unique: {@link #schedule} of a pending key replaces its due time and value; the old due time
 *       never fires.</li>
 *   <li>A due time in the past (or now) is accepted and fires at the next {@code advance}.</li>
 * </ul>
 *
 * @param <V> a value attached to each timer and handed back on expiry
 */
public final class TimerWheel<V> {

  /** Returned by {@link #dueAt} and {@link #earliestDueAt} when there is no such timer. */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  /** Default tick, milliseconds. */
  public static final long DEFAULT_TICK_MS = 10;

  /**
   * @param tickMs  the resolution, milliseconds, {@code >= 1}
   * @param startMs the wheel's initial time, epoch milliseconds
   */
  public TimerWheel(long tickMs, long startMs) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** The tick, in milliseconds. */
  public long tickMs() {
    throw new UnsupportedOperationException("being implemented");
  }

  /** The time the wheel has been advanced to, epoch milliseconds. */
  public long currentTimeMs() {
    throw new UnsupportedOperationException("being implemented");
  }

  /**
   * Schedules {@code key} to expire at {@code dueAtMs}, replacing any pending timer with that key.
   *
   * @return {@code true} if the key was not pending, {@code false} if a pending timer was replaced
   */
  public boolean schedule(String key, long dueAtMs, V value) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** Cancels the pending timer {@code key}; returns whether there was one. */
  public boolean cancel(String key) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** The value of pending timer {@code key}, or {@code null}. */
  public V get(String key) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** The due time of pending timer {@code key}, or {@link #NO_DEADLINE}. */
  public long dueAt(String key) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** Number of pending timers. */
  public int size() {
    throw new UnsupportedOperationException("being implemented");
  }

  /**
   * The earliest due time of any pending timer, or {@link #NO_DEADLINE} if none.
   * May be rounded down to a tick boundary; never later than the true earliest due time.
   */
  public long earliestDueAt() {
    throw new UnsupportedOperationException("being implemented");
  }

  /**
   * Advances the wheel to {@code nowMs} and hands every timer due at or before it to {@code handler},
   * at most {@code limit} of them; the rest stay due and are handed out by the next calls.
   *
   * @return how many timers were handed out
   */
  public int advance(long nowMs, ExpiryHandler<V> handler, int limit) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** Number of levels currently in use (grows as far timers are scheduled). */
  public int levels() {
    throw new UnsupportedOperationException("being implemented");
  }

  /** Number of slots of {@code level}. */
  public int slots(int level) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** Milliseconds covered by one slot of {@code level}. */
  public long spanMs(int level) {
    throw new UnsupportedOperationException("being implemented");
  }

  /** The slot index of {@code level} the wheel's current time falls in. */
  public int cursor(int level) {
    throw new UnsupportedOperationException("being implemented");
  }

  /**
   * Copies the number of timers in each slot of {@code level} into {@code into}
   * (length {@code >= slots(level)}); returns the total at that level.
   */
  public int occupancy(int level, int[] into) {
    throw new UnsupportedOperationException("being implemented");
  }
}
