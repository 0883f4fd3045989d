package io.tickwheel.core.wheel;

/**
 * Turns a {@link TimerWheel}'s values into bytes kept beside their keys, so a pending timer costs a few bytes of
 * primitive arrays instead of an object graph the garbage collector must trace. Optional: a wheel without a codec
 * keeps each value by reference.
 *
 * <p>The wheel calls {@link #encodedLength} and then, with the same arguments, {@link #encode}, when a value is
 * scheduled; {@link #decode} when it hands the value out or {@link TimerWheel#get} asks for it, each time building a
 * fresh copy. A codec may refuse a value ({@link #BY_REFERENCE}): the wheel then keeps that one by reference.
 * {@code decode(key, dueAtMs, encode(value, dueAtMs))} must equal {@code value} as far as the wheel's user cares.
 *
 * <p>Called on the wheel's owner thread only, from inside the wheel's methods; a codec must not call the wheel.
 *
 * @param <V> the wheel's values
 */
public interface ValueCodec<V> {

  /** {@link #encodedLength}'s answer for a value the wheel should keep by reference. */
  int BY_REFERENCE = -1;

  /**
   * How many bytes {@link #encode} writes for {@code value}, due at {@code dueAtMs}, or {@link #BY_REFERENCE}.
   *
   * @param value   the value scheduled, possibly {@code null}
   * @param dueAtMs its due time, epoch ms (which {@link #decode} is given back)
   */
  int encodedLength(V value, long dueAtMs);

  /**
   * Writes {@code value} at {@code into[offset..offset + encodedLength(value, dueAtMs))}; called right after
   * {@link #encodedLength} with the same arguments, which answered a length {@code >= 0}.
   */
  void encode(V value, long dueAtMs, byte[] into, int offset);

  /**
   * The value {@link #encode} wrote at {@code from[offset..]} for the timer {@code key} due at {@code dueAtMs}.
   */
  V decode(String key, long dueAtMs, byte[] from, int offset);
}
