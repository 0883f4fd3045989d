package io.tickwheel.core.wheel;

/**
 * One pending timer: a node of an intrusive doubly-linked slot list and of the key index.
 *
 * <p>Package-private; owned by one {@link TimerWheel}. Layout (compressed oops): 12 byte header, 8 byte
 * {@code dueAtMs}, six 4 byte fields = 44, padded to 48 bytes.
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

  /** The flat slot index ({@code level << slotBits | slot}) of the list this entry is linked into. */
  int slot;

  TimerEntry(String key, int hash, long dueAtMs, V value) {
    this.key = key;
    this.hash = hash;
    this.dueAtMs = dueAtMs;
    this.value = value;
  }
}
