package io.tickwheel.core.store;

/**
 * Maps a timer id to one of {@code n} partitions, stably across processes and versions (FNV-1a over the
 * id's UTF-16 chars). Stores use one partition today; a partitioned store derives a timer's partition from
 * its key with this, so every operation on one timer lands on one partition.
 */
public final class Partitioner {

  private Partitioner() {}

  /** The partition of {@code id} among {@code n}, in {@code [0, n)}. */
  public static int partition(String id, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, was " + n);
    }
    int h = 0x811c9dc5;
    for (int i = 0; i < id.length(); i++) {
      h ^= id.charAt(i);
      h *= 0x01000193;
    }
    return Math.floorMod(h, n);
  }
}
