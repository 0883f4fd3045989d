package io.tickwheel.core.wheel;

/**
 * The key index of a {@link TimerWheel}: an open-addressing hash table from a timer's key to its entry id in
 * {@link Entries}, with linear probing, Fibonacci hashing of {@link String#hashCode()} and backward-shift deletion
 * (no tombstones, so probe lengths do not degrade under schedule/cancel churn).
 *
 * <p>Each table slot is one {@code long}: the key's hash code in the high half, {@code id + 1} in the low half,
 * 0 when empty. Probes compare hash codes without touching the entries, and growing or deleting never reads a
 * key. The table is kept at most three quarters full (linear probing stays short there because a probe compares the
 * hash codes held in the table, in consecutive memory): 10.7 to 21.3 bytes per timer. It holds no references, so the garbage
 * collector neither scans it nor pays write barriers for it. Not thread safe. Package-private.
 */
final class KeyIndex {

  static final int NONE = -1;

  private static final int MIN_CAPACITY = 16;
  private static final int MAX_CAPACITY = 1 << 30;
  private static final int FIBONACCI = 0x9E3779B9;

  private long[] table;
  private int mask;
  private int shift;
  private int size;
  private int resizeAt;

  /** @param expected the number of keys to make room for without resizing, {@code >= 0} */
  KeyIndex(int expected) {
    int capacity = MIN_CAPACITY;
    while (capacity < MAX_CAPACITY && capacity - capacity / 4 < expected) {
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

  private static long slot(int hash, int id) {
    return ((long) hash << 32) | ((id + 1) & 0xFFFF_FFFFL);
  }

  /**
   * The id of {@code key} (whose hash code is {@code hash}), or {@link #NONE}.
   *
   * @param keys the keys by id ({@link Entries#keyEquals})
   */
  int find(String key, int hash, Entries keys) {
    long[] t = table;
    int m = mask;
    for (int i = home(hash); ; i = (i + 1) & m) {
      long s = t[i];
      if (s == 0) {
        return NONE;
      }
      if ((int) (s >>> 32) == hash) {
        int id = (int) s - 1;
        if (keys.keyEquals(id, key)) {
          return id;
        }
      }
    }
  }

  /** Adds {@code id} under {@code hash}; its key must not be in the index. */
  void add(int hash, int id) {
    if (size >= resizeAt) {
      grow();
    }
    insert(table, mask, slot(hash, id));
    size++;
  }

  /** Removes {@code id}, which must be in the index under {@code hash}. */
  void remove(int hash, int id) {
    long[] t = table;
    int m = mask;
    long wanted = slot(hash, id);
    int hole = home(hash);
    while (t[hole] != wanted) {
      hole = (hole + 1) & m;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole when their home
    // position is not cyclically inside (hole, j].
    for (int j = (hole + 1) & m; ; j = (j + 1) & m) {
      long s = t[j];
      if (s == 0) {
        break;
      }
      if (((j - home((int) (s >>> 32))) & m) >= ((j - hole) & m)) {
        t[hole] = s;
        hole = j;
      }
    }
    t[hole] = 0;
    size--;
  }

  private void insert(long[] t, int m, long s) {
    int i = home((int) (s >>> 32));
    while (t[i] != 0) {
      i = (i + 1) & m;
    }
    t[i] = s;
  }

  private void grow() {
    long[] old = table;
    if (old.length >= MAX_CAPACITY) {
      throw new IllegalStateException("too many pending timers: " + size);
    }
    allocate(old.length << 1);
    for (long s : old) {
      if (s != 0) {
        insert(table, mask, s);
      }
    }
  }

  private void allocate(int capacity) {
    table = new long[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    resizeAt = capacity - capacity / 4;
  }
}
