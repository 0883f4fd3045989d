package io.tickwheel.core.wheel;

/**
 * The key index of a {@link TimerWheel}: an open-addressing hash table of {@link TimerEntry} keyed by
 * {@link TimerEntry#key}, with linear probing, Fibonacci hashing of {@link String#hashCode()} and
 * backward-shift deletion (no tombstones, so probe lengths do not degrade under schedule/cancel churn).
 *
 * <p>Costs one reference per table slot; the table is kept at most half full, so 8 to 16 bytes per
 * entry with compressed oops (a {@link java.util.HashMap} costs a 32 byte node plus 4 to 8 bytes of table
 * per entry). Not thread safe. Package-private.
 */
final class EntryIndex<V> {

  private static final int MIN_CAPACITY = 16;
  private static final int MAX_CAPACITY = 1 << 30;
  private static final int FIBONACCI = 0x9E3779B9;

  private TimerEntry<V>[] table;
  private int mask;
  private int shift;
  private int size;
  private int resizeAt;

  /** @param expected the number of entries to make room for without resizing, {@code >= 0} */
  EntryIndex(int expected) {
    if (expected < 0) {
      throw new IllegalArgumentException("initialCapacity must be >= 0, was " + expected);
    }
    int capacity = MIN_CAPACITY;
    while (capacity < MAX_CAPACITY && capacity / 2 < expected) {
      capacity <<= 1;
    }
    allocate(capacity);
  }

  int size() {
    return size;
  }

  /** Table length (for tests and footprint reports). */
  int capacity() {
    return table.length;
  }

  private int home(int hash) {
    return (hash * FIBONACCI) >>> shift;
  }

  /** The entry with {@code key} (whose hash code is {@code hash}), or null. */
  TimerEntry<V> find(String key, int hash) {
    TimerEntry<V>[] t = table;
    int m = mask;
    for (int i = home(hash); ; i = (i + 1) & m) {
      TimerEntry<V> e = t[i];
      if (e == null) {
        return null;
      }
      if (e.hash == hash && key.equals(e.key)) {
        return e;
      }
    }
  }

  /** Adds {@code e}, whose key must not be in the index. */
  void add(TimerEntry<V> e) {
    if (size >= resizeAt) {
      grow();
    }
    insert(table, e);
    size++;
  }

  /** Removes {@code e}, which must be in the index. */
  void remove(TimerEntry<V> e) {
    TimerEntry<V>[] t = table;
    int m = mask;
    int hole = home(e.hash);
    while (t[hole] != e) {
      hole = (hole + 1) & m;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole when their home
    // position is not cyclically inside (hole, j].
    for (int j = (hole + 1) & m; ; j = (j + 1) & m) {
      TimerEntry<V> f = t[j];
      if (f == null) {
        break;
      }
      if (((j - home(f.hash)) & m) >= ((j - hole) & m)) {
        t[hole] = f;
        hole = j;
      }
    }
    t[hole] = null;
    size--;
  }

  private void insert(TimerEntry<V>[] t, TimerEntry<V> e) {
    int m = mask;
    int i = home(e.hash);
    while (t[i] != null) {
      i = (i + 1) & m;
    }
    t[i] = e;
  }

  private void grow() {
    TimerEntry<V>[] old = table;
    if (old.length >= MAX_CAPACITY) {
      throw new IllegalStateException("too many pending timers: " + size);
    }
    allocate(old.length << 1);
    for (TimerEntry<V> e : old) {
      if (e != null) {
        insert(table, e);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private void allocate(int capacity) {
    table = (TimerEntry<V>[]) new TimerEntry<?>[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    resizeAt = capacity / 2;
  }
}
