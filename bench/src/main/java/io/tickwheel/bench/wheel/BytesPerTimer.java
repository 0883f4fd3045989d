package io.tickwheel.bench.wheel;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.concurrent.TimeUnit;

/**
 * Bytes of heap per pending timer, measured as a heap delta: live heap after {@code System.gc()} with the
 * peer holding {@code n} far timers, minus live heap before the peer was created, divided by {@code n}.
 *
 * <p>The key strings (and the rest of the {@link Fixtures}) are allocated before the baseline, so they are not
 * counted; everything the structure allocates per timer is: entries, tasks, timeouts, futures, bucket and heap
 * arrays, and the key map (each keyed peer's map is part of what it needs to be keyed). Threaded peers are given
 * a moment to move queued timers into their buckets first. Each peer is set up exactly as for the
 * schedule/cancel/churn benchmarks ({@link Peers#forPending}).
 */
public final class BytesPerTimer {

  private BytesPerTimer() {
  }

  /** Bytes per pending timer of peer {@code name} holding {@code fixtures.pending()} timers. */
  public static double measure(String name, Fixtures fixtures) throws InterruptedException {
    int n = fixtures.pending();
    long before = liveHeap();
    TimerPeer peer = Peers.forPending(name, n);
    try {
      for (int i = 0; i < n; i++) {
        peer.schedule(i, fixtures.key(i), fixtures.farDelayMs(i));
      }
      if (peer.size() != n) {
        throw new IllegalStateException(name + ": " + peer.size() + " pending, expected " + n);
      }
      if (name.equals("netty")) {
        TimeUnit.MILLISECONDS.sleep(300); // Netty moves at most 100 k queued timeouts into buckets per 10 ms tick
      }
      long after = liveHeap();
      return (after - before) / (double) n;
    } finally {
      peer.close();
      Reference.reachabilityFence(peer);
      Reference.reachabilityFence(fixtures);
    }
  }

  private static long liveHeap() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 2; i++) {
      System.gc();
      TimeUnit.MILLISECONDS.sleep(50);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
