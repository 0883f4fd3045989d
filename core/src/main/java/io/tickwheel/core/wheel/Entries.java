package io.tickwheel.core.wheel;

/**
 * The pending timers of a {@link TimerWheel}, stored as parallel arrays indexed by an entry id: three longs
 * (due time, tick, the two links of its slot list) and two references (key, value) per id. Released ids are
 * reused through a free list threaded through the links, so steady schedule/cancel churn allocates nothing, and
 * linking or unlinking writes only primitives (no garbage-collector write barriers, unlike a list of objects).
 *
 * <p>32 bytes per id; the arrays grow by half when full and never shrink. Not thread safe. Package-private.
 */
final class Entries {

  /** The null link. */
  static final int NIL = -1;

  private static final int STRIDE = 3;
  private static final int DUE = 0;
  private static final int TICK = 1;
  private static final int LINKS = 2;
  private static final long LOW = 0xFFFF_FFFFL;
  private static final int MAX_IDS = Integer.MAX_VALUE / STRIDE - 2;

  private long[] meta;
  private Object[] refs;
  private int capacity;
  /** Ids at or above it have never been handed out. */
  private int top;
  private int free = NIL;

  /** @param initial ids to allocate up front, {@code >= 0} */
  Entries(int initial) {
    capacity = Math.max(16, initial);
    meta = new long[capacity * STRIDE];
    refs = new Object[capacity * 2];
  }

  /** Number of ids the arrays hold (for footprint reports). */
  int capacity() {
    return capacity;
  }

  /** A fresh id holding {@code key}, {@code value} and {@code dueAtMs}; its tick and links are unset. */
  int allocate(String key, Object value, long dueAtMs) {
    int id = free;
    if (id != NIL) {
      free = next(id);
    } else {
      if (top == capacity) {
        grow();
      }
      id = top++;
    }
    meta[id * STRIDE + DUE] = dueAtMs;
    refs[id << 1] = key;
    refs[(id << 1) + 1] = value;
    return id;
  }

  /** Returns {@code id} (unlinked) to the free list and drops its key and value. */
  void release(int id) {
    refs[id << 1] = null;
    refs[(id << 1) + 1] = null;
    meta[id * STRIDE + LINKS] = free & LOW;
    free = id;
  }

  String keyAt(int id) {
    return (String) refs[id << 1];
  }

  Object valueAt(int id) {
    return refs[(id << 1) + 1];
  }

  void setValue(int id, Object value) {
    refs[(id << 1) + 1] = value;
  }

  long due(int id) {
    return meta[id * STRIDE + DUE];
  }

  void setDue(int id, long dueAtMs) {
    meta[id * STRIDE + DUE] = dueAtMs;
  }

  long tick(int id) {
    return meta[id * STRIDE + TICK];
  }

  void setTick(int id, long tick) {
    meta[id * STRIDE + TICK] = tick;
  }

  int prev(int id) {
    return (int) (meta[id * STRIDE + LINKS] >>> 32);
  }

  int next(int id) {
    return (int) meta[id * STRIDE + LINKS];
  }

  void setLinks(int id, int prev, int next) {
    meta[id * STRIDE + LINKS] = ((long) prev << 32) | (next & LOW);
  }

  void setPrev(int id, int prev) {
    int i = id * STRIDE + LINKS;
    meta[i] = ((long) prev << 32) | (meta[i] & LOW);
  }

  void setNext(int id, int next) {
    int i = id * STRIDE + LINKS;
    meta[i] = (meta[i] & ~LOW) | (next & LOW);
  }

  private void grow() {
    if (capacity >= MAX_IDS) {
      throw new IllegalStateException("too many pending timers: " + capacity);
    }
    int grown = (int) Math.min(MAX_IDS, capacity + (capacity >> 1));
    meta = java.util.Arrays.copyOf(meta, grown * STRIDE);
    refs = java.util.Arrays.copyOf(refs, grown * 2);
    capacity = grown;
  }
}
