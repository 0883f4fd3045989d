package io.tickwheel.core.wheel;

/**
 * Receives the timers that {@link TimerWheel#advance} hands out.
 *
 * <p>Called on the wheel's owner thread, from inside {@code advance}. The handler may call
 * {@link TimerWheel#schedule}, {@link TimerWheel#cancel} and the read methods of the same wheel,
 * including re-scheduling the key it has just been given (the usual way to run a periodic timer).
 * A key is no longer pending when the handler is called for it.
 *
 * @param <V> the value attached to each timer
 */
@FunctionalInterface
public interface ExpiryHandler<V> {

  /**
   * One expired timer.
   *
   * @param key    the timer's key
   * @param dueAtMs the due time it was scheduled for, in epoch milliseconds (not rounded to a tick)
   * @param value  the value given to {@link TimerWheel#schedule}
   */
  void onExpiry(String key, long dueAtMs, V value);
}
