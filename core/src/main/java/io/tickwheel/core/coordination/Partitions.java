package io.tickwheel.core.coordination;

/**
 * The partition of a timer id: {@code fmix32(id.hashCode()) mod partitions} (unsigned). {@link String#hashCode()} is
 * fixed by the Java Language Specification and MurmurHash3's 32-bit finalizer spreads it, so every node and every
 * JVM version computes the same partition for the same id, and consecutive ids ("k-1", "k-2", …) spread evenly.
 *
 * <p>Stateless, thread safe.
 */
public final class Partitions {

  /** Default number of partitions of a cluster ({@code --partitions}). */
  public static final int DEFAULT = 256;
  /** Largest number of partitions a cluster may have. */
  public static final int MAX = 4096;

  private Partitions() {}

  /**
   * @param id         a timer id (non-null)
   * @param partitions the cluster's partition count, 1..{@link #MAX}
   * @return the partition, 0..partitions-1
   */
  public static int of(String id, int partitions) {
    if (partitions < 1 || partitions > MAX) {
      throw new IllegalArgumentException("partitions must be in 1.." + MAX + ", was " + partitions);
    }
    return Integer.remainderUnsigned(fmix32(id.hashCode()), partitions);
  }

  /** MurmurHash3's 32-bit finalizer: a bijection that makes every input bit affect every output bit. */
  public static int fmix32(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /** MurmurHash3's 64-bit finalizer (for rendezvous weights). */
  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
