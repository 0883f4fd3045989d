package io.tickwheel.store.redis.impl;

import io.tickwheel.core.store.Retention;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a trim of one store's log (its firings, or its finished deliveries) can remove anything, so that an idle
 * log costs Redis no call: a cluster node trims each partition it owns every few seconds, and most of 4,096 partitions
 * may have nothing to trim.
 *
 * <p>After a trim that finished ({@link #trimmed}), the next one is sent only once one of these holds:
 * <ul>
 *   <li>this store wrote to the log since that trim was sent ({@link #wrote}, called before each write is sent);</li>
 *   <li>the cutoff of the retention passed the fire time the trim reported as the next one that ages out;</li>
 *   <li>the retention differs from that trim's;</li>
 *   <li>{@link #MAX_QUIET_MS} passed since that trim (by the callers' {@code nowMs}), or {@code nowMs} went back.</li>
 * </ul>
 * It relies on this store being the log's only writer, which the partition's lease (the fence of every write) and
 * the single node's claim on its prefix make so; the last rule bounds what a write by anything else could delay.
 * A failed trim forgets what was known. Thread safe.
 */
final class QuietTrim {

  /** Longest a log goes untrimmed on the strength of an earlier trim, ms. */
  static final long MAX_QUIET_MS = 60_000;

  /** What a finished trim left: nothing to trim until {@code retention.cutoff(now) > untilCutoff}. */
  private record Quiet(Retention retention, long writes, long atMs, long untilCutoff) {}

  private final AtomicLong writes = new AtomicLong();
  private volatile Quiet quiet;

  /** A write to the log is about to be sent. */
  void wrote() {
    writes.incrementAndGet();
  }

  /** The write count to hand to {@link #trimmed}, read before the trim is sent. */
  long beforeTrim() {
    return writes.get();
  }

  /** Whether a trim at {@code nowMs} with {@code retention} can be skipped: it would remove nothing. */
  boolean skip(Retention retention, long nowMs) {
    Quiet q = quiet;
    return q != null && q.retention.equals(retention) && q.writes == writes.get() && nowMs >= q.atMs
        && nowMs - q.atMs < MAX_QUIET_MS && retention.cutoff(nowMs) <= q.untilCutoff;
  }

  /**
   * A trim sent with {@code writesBefore} ({@link #beforeTrim}) finished at {@code nowMs} and left nothing to trim
   * while the cutoff stays at or below {@code untilCutoff} (epoch ms; {@link Long#MAX_VALUE}: until the next write).
   */
  void trimmed(Retention retention, long writesBefore, long nowMs, long untilCutoff) {
    quiet = new Quiet(retention, writesBefore, nowMs, untilCutoff);
  }

  /** Nothing is known: the next trim is sent. */
  void forget() {
    quiet = null;
  }
}
