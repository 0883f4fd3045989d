package io.tickwheel.core.wheel;

import java.util.Arrays;

/**
 * The timers of a {@link TimerWheel}'s current tick that are not due yet, as a binary min-heap of entry ids ordered
 * by due time ({@link Entries#due}), so that an {@code advance} whose {@code now} falls inside the tick hands out
 * exactly the timers due by then, earliest first, without scanning the others again on every call.
 *
 * <p>An id in the heap has {@link #IN_HEAP} as its {@linkplain Entries#prev previous link} and its heap position as
 * its {@linkplain Entries#next next link}, so {@link #remove} (a cancel or a re-arm) is O(log n) without a search.
 * The due time of an id must not change while it is in the heap (remove it first). Ties come out in no particular
 * order. The array grows by half when full and never shrinks: steady use allocates nothing. Not thread safe.
 * Package-private.
 */
final class DueHeap {

  /** The previous-link value that marks an entry as held by the heap (never a valid id). */
  static final int IN_HEAP = -2;

  private final Entries entries;
  private int[] ids = new int[16];
  private int size;

  DueHeap(Entries entries) {
    this.entries = entries;
  }

  int size() {
    return size;
  }

  /** The id with the earliest due time; the heap must not be empty. */
  int top() {
    return ids[0];
  }

  /** Adds {@code id} (not linked anywhere). O(log n), O(1) on average for due times in random order. */
  void add(int id) {
    if (size == ids.length) {
      if (size == Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("too many timers in one tick: " + size);
      }
      ids = Arrays.copyOf(ids, (int) Math.min(Integer.MAX_VALUE - 8, size + (long) (size >> 1)));
    }
    siftUp(size++, id, entries.due(id));
  }

  /** Removes the id at heap position {@code pos} (its {@linkplain Entries#next next link}). O(log n). */
  void remove(int pos) {
    int last = ids[--size];
    if (pos == size) {
      return;
    }
    long due = entries.due(last);
    if (pos > 0 && due < entries.due(ids[(pos - 1) >>> 1])) {
      siftUp(pos, last, due);
    } else {
      siftDown(pos, last, due);
    }
  }

  private void siftUp(int pos, int id, long due) {
    while (pos > 0) {
      int parent = (pos - 1) >>> 1;
      int p = ids[parent];
      if (entries.due(p) <= due) {
        break;
      }
      put(pos, p);
      pos = parent;
    }
    put(pos, id);
  }

  private void siftDown(int pos, int id, long due) {
    int half = size >>> 1;
    while (pos < half) {
      int child = 2 * pos + 1;
      int c = ids[child];
      long cDue = entries.due(c);
      int right = child + 1;
      if (right < size) {
        int r = ids[right];
        long rDue = entries.due(r);
        if (rDue < cDue) {
          child = right;
          c = r;
          cDue = rDue;
        }
      }
      if (due <= cDue) {
        break;
      }
      put(pos, c);
      pos = child;
    }
    put(pos, id);
  }

  private void put(int pos, int id) {
    ids[pos] = id;
    entries.setLinks(id, IN_HEAP, pos);
  }
}
