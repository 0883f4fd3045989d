package io.tickwheel.server.cluster;

import io.tickwheel.core.coordination.Partitions;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Who should own each partition: rendezvous (highest-random-weight) hashing of the partition over the eligible node
 * ids. Every node computes the same answer from the same member list; a node joining takes only the partitions it
 * now wins (about P/N), a node leaving gives up only its own, each to the node that had the next weight.
 *
 * <p>The weight of node {@code n} for partition {@code p} is {@code fmix64(h(n) ^ fmix64(p + 1) * φ)} where
 * {@code h} is 64-bit FNV-1a of the id's UTF-8 bytes (spread by {@link Partitions#fmix64}); ties (never seen in
 * practice) go to the smaller id. Stateless, thread safe.
 */
final class Rendezvous {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Rendezvous() {}

  /**
   * @param nodes      the eligible node ids (any order, no repeats); empty: nobody
   * @param partitions the partition count
   * @return per partition, the id of the node that should own it, or {@code null} entries when {@code nodes} is empty
   */
  static String[] assign(List<String> nodes, int partitions) {
    String[] out = new String[partitions];
    long[] h = new long[nodes.size()];
    for (int i = 0; i < h.length; i++) {
      h[i] = nodeHash(nodes.get(i));
    }
    for (int p = 0; p < partitions; p++) {
      long pk = Partitions.fmix64(p + 1L) * GOLDEN;
      int best = -1;
      long bestW = 0;
      for (int i = 0; i < h.length; i++) {
        long w = Partitions.fmix64(h[i] ^ pk);
        int c = best < 0 ? 1 : Long.compareUnsigned(w, bestW);
        if (c > 0 || c == 0 && nodes.get(i).compareTo(nodes.get(best)) < 0) {
          best = i;
          bestW = w;
        }
      }
      out[p] = best < 0 ? null : nodes.get(best);
    }
    return out;
  }

  /** 64-bit FNV-1a of the id's UTF-8 bytes, finalized with {@link Partitions#fmix64}. */
  static long nodeHash(String id) {
    long x = 0xcbf29ce484222325L;
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      x ^= b & 0xff;
      x *= 0x100000001b3L;
    }
    return Partitions.fmix64(x);
  }
}
