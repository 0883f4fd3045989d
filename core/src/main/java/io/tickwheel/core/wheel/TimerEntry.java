package io.tickwheel.core.wheel;

/**
 * One pending timer: a node of an intrusive doubly-linked slot list and of the key index.
 *
 * <p>Package-private; owned by one {@link TimerWheel}. Layout (compressed oops): 12 byte header, two 8 byte
 * longs, five 4 byte fields = 48 bytes, no padding.
 */
final class TimerEntry<V> {

  /** The key; never null. */
  final String key;

  /** {@code key.hashCode()}, cached so index probes do not touch the key string. */
  final int hash;

  /** The due time, epoch milliseconds, as given to {@code schedule} (not rounded). */
  long dueAtMs;

  /** The value given to {@code schedule}; may be null. */
  V value;

  /** Neighbours in the slot list; null at the ends. */
  TimerEntry<V> prev;
  TimerEntry<V> next;

  /**
   * The tick (relative to the wheel's start tick) this entry is filed under: {@code ceil(dueAtMs / tickMs)}, or
   * the wheel's current tick if it was already due when scheduled. Its slot follows from it and the cursor.
   */
  long tick;

  TimerEntry(String key, int hash, long dueAtMs, V value) {
    this.key = key;
    this.hash = hash;
    this.dueAtMs = dueAtMs;
    this.value = value;
  }
}
