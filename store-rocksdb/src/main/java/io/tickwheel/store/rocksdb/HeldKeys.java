package io.tickwheel.store.rocksdb;

import java.util.Arrays;

/**
 * Keys, with their values for puts, held back to be written in RocksDB's key order (bytes compared unsigned), see
 * {@link WriteGroup#deferDueWrites}.
 *
 * <p>Sorted by its own merge sort, not {@code List.sort}: the JDK's {@code TimSort} is shared by every sort in the
 * process, and its compiled code speculates on the comparators and the run shapes it has seen. After a minute of
 * touches only it was deoptimized and compiled again by C2 during the first second of firings (~0.2 s of a core on a
 * 2-core machine, while 100,000 timers were due). This sort calls one static comparison and is compiled for this
 * use alone. Input already in order, the usual case for a firing batch (the wheel hands timers out by due time),
 * costs one pass.
 *
 * <p>Writer-confined, not thread safe.
 */
final class HeldKeys {

  /** Below this many keys a stretch is sorted by insertion. */
  private static final int INSERTION_MAX = 16;

  private final boolean withValues;
  private byte[][] keys = new byte[16][];
  private byte[][] values;
  private int size;
  private byte[][] tmpKeys = new byte[0][];
  private byte[][] tmpValues = new byte[0][];

  /** @param withValues whether each key comes with a value (puts) or not (deletes) */
  HeldKeys(boolean withValues) {
    this.withValues = withValues;
    this.values = withValues ? new byte[16][] : null;
  }

  /** Holds {@code key} ({@code value} is ignored unless this holds values). */
  void add(byte[] key, byte[] value) {
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      if (withValues) {
        values = Arrays.copyOf(values, size * 2);
      }
    }
    keys[size] = key;
    if (withValues) {
      values[size] = value;
    }
    size++;
  }

  int size() {
    return size;
  }

  byte[] key(int i) {
    return keys[i];
  }

  /** The value held with key {@code i}, or {@code null} when this holds deletes. */
  byte[] value(int i) {
    return withValues ? values[i] : null;
  }

  /** Forgets every key (and drops the references, so the arrays do not keep a large group's keys alive). */
  void clear() {
    Arrays.fill(keys, 0, size, null);
    if (withValues) {
      Arrays.fill(values, 0, size, null);
    }
    size = 0;
  }

  /** Sorts the keys (values follow their keys) in RocksDB's default order: unsigned lexicographic bytes. */
  void sort() {
    if (size < 2 || inOrder()) {
      return;
    }
    if (tmpKeys.length < size) {
      tmpKeys = new byte[keys.length][];
      tmpValues = withValues ? new byte[keys.length][] : tmpValues;
    }
    mergeSort(0, size);
    Arrays.fill(tmpKeys, 0, size, null);
    if (withValues) {
      Arrays.fill(tmpValues, 0, size, null);
    }
  }

  private boolean inOrder() {
    for (int i = 1; i < size; i++) {
      if (Arrays.compareUnsigned(keys[i - 1], keys[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /** Sorts {@code [lo, hi)}. */
  private void mergeSort(int lo, int hi) {
    if (hi - lo <= INSERTION_MAX) {
      insertionSort(lo, hi);
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(lo, mid);
    mergeSort(mid, hi);
    if (Arrays.compareUnsigned(keys[mid - 1], keys[mid]) <= 0) {
      return; // the two halves are already in order
    }
    System.arraycopy(keys, lo, tmpKeys, lo, hi - lo);
    if (withValues) {
      System.arraycopy(values, lo, tmpValues, lo, hi - lo);
    }
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      boolean left = j >= hi || (i < mid && Arrays.compareUnsigned(tmpKeys[i], tmpKeys[j]) <= 0);
      int from = left ? i++ : j++;
      keys[k] = tmpKeys[from];
      if (withValues) {
        values[k] = tmpValues[from];
      }
    }
  }

  private void insertionSort(int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      byte[] k = keys[i];
      byte[] v = withValues ? values[i] : null;
      int j = i - 1;
      while (j >= lo && Arrays.compareUnsigned(keys[j], k) > 0) {
        keys[j + 1] = keys[j];
        if (withValues) {
          values[j + 1] = values[j];
        }
        j--;
      }
      keys[j + 1] = k;
      if (withValues) {
        values[j + 1] = v;
      }
    }
  }
}
