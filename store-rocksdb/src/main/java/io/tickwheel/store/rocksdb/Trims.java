package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.Retention;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The store's two trims, of the firing log and of the callbacks' delivery records, each in writes of bounded size on
 * the writer thread that every create and firing record waits behind. A call queues one write, and queues the next
 * only once that one is applied, while a write did all it was allowed to (more may be left), up to
 * {@code maxPerCall} removals in all: the writes queued meanwhile go between them, and what is left goes to the next
 * call.
 *
 * <p>Thread-safe as the store's submission is: the writes run on the writer thread, the chaining on the caller's
 * context.
 */
final class Trims {

  /** Queues a write call on the store's writer (the store's {@code submit}). */
  interface Submitter {
    Future<Long> submit(WriteOp<Long> op);
  }

  private final Submitter submitter;
  private final int maxPerCall;
  /** Where the last delivery age check stopped (writer thread). */
  private final AtomicLong deliveryAgeCursor = new AtomicLong();

  Trims(Submitter submitter, int maxPerCall) {
    this.submitter = submitter;
    this.maxPerCall = maxPerCall;
  }

  /** trimFirings, in writes examining at most {@link FiringLog#SCAN_PER_WRITE} entries by age. */
  Future<Long> firings(Context ctx, Retention retention, long nowMs) {
    return repeat(FiringLog.SCAN_PER_WRITE, max -> new FiringLog(ctx, retention, nowMs, max));
  }

  /**
   * trimDeliveries, in writes of at most {@link Deliveries#REMOVALS_PER_WRITE} removals; the removal by count goes
   * on from where the previous write of the call stopped, not over the deleted entries again.
   */
  Future<Long> deliveries(Context ctx, Retention retention, long nowMs) {
    AtomicLong countCursor = new AtomicLong();
    return repeat(Deliveries.REMOVALS_PER_WRITE,
        max -> new Deliveries(ctx, retention, nowMs, max, deliveryAgeCursor, countCursor));
  }

  private Future<Long> repeat(int perWrite, IntFunction<WriteOp<Long>> write) {
    Promise<Long> done = Promise.promise();
    next(perWrite, write, 0, done);
    return done.future();
  }

  /**
   * One write allowed {@code min(perWrite, what the call has left)}; again while a write removed that many. Each
   * write's answer starts the next (one promise for the call, not a future nested per write).
   */
  private void next(int perWrite, IntFunction<WriteOp<Long>> write, long removedBefore, Promise<Long> done) {
    int max = (int) Math.min(perWrite, maxPerCall - removedBefore);
    submitter.submit(write.apply(max)).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      long total = removedBefore + ar.result();
      if (ar.result() < max || total >= maxPerCall) {
        done.complete(total);
      } else {
        next(perWrite, write, total, done);
      }
    });
  }

  /**
   * One write of trimFirings: the retained log is always the contiguous range {@code [firstRetained, lastSeq]}, so
   * trimming is one {@code deleteRange} of a prefix. By count the cut is computed; by age at most {@code maxScan}
   * entries are examined. The newest firing is never cut.
   */
  static final class FiringLog extends WriteOp<Long> {
    /**
     * Most log entries one write examines by age: 100,000 held the writer thread 40-90 ms; a trim call whose write
     * cut at least this many repeats it, with the writes queued meanwhile in between.
     */
    static final int SCAN_PER_WRITE = 10_000;

    private final Retention retention;
    private final long nowMs;
    private final int maxScan;

    FiringLog(Context c, Retention retention, long nowMs, int maxScan) {
      super(c);
      this.retention = retention;
      this.nowMs = nowMs;
      this.maxScan = maxScan;
    }

    @Override
    Long apply(WriteGroup g) throws RocksDBException {
      long first = g.firstRetained;
      long last = g.lastSeq;
      if (first >= last) {
        return 0L; // empty, or only the newest firing left
      }
      long cut = Math.max(first, last - retention.maxCount() + 1);
      long cutoff = retention.cutoff(nowMs); // a firing fired before this is too old
      if (cut < last) {
        g.guard.check();
        try (ReadOptions ro = new ReadOptions().setFillCache(false);
            RocksIterator it = g.db.db.newIterator(g.db.firings, ro)) {
          it.seek(Keys.seq(cut));
          for (int scanned = 0; it.isValid() && scanned < maxScan; scanned++, it.next()) {
            long seq = Keys.seqOf(it.key());
            if (seq >= last || Codec.firedAtOf(it.value()) >= cutoff) {
              break;
            }
            cut = seq + 1;
          }
          it.status();
        }
      }
      if (cut <= first) {
        return 0L;
      }
      g.batch.deleteRange(g.db.firings, Keys.seq(first), Keys.seq(cut));
      g.firstRetained = cut;
      return cut - first;
    }
  }

  /**
   * One write of trimDeliveries, in two steps over the finished deliveries only ({@link FinishedDeliveries}: pending
   * ones are never read), removing at most {@code maxRemovals}:
   * <ol>
   *   <li>by count: while more than {@code maxCount} finished deliveries are stored, removes the oldest (by seq);</li>
   *   <li>by age, unless the first step used up {@code maxRemovals}: examines at most {@value #AGE_CHECKS_PER_WRITE}
   *   finished deliveries after the one the previous age check stopped at ({@code cursor}; after the last the next
   *   starts from the oldest again) and removes those changed before {@code now - maxAgeMs}. The age comes from the
   *   index entry; an entry written before it carried the age is read from its record once and given it.</li>
   * </ol>
   * A write with nothing to remove so reads at most {@value #AGE_CHECKS_PER_WRITE} index entries and decodes no record
   * (the writer thread, which every write waits behind, is free again within milliseconds): an old record behind
   * 100,000 recent ones is reached within 50 calls. One that removes {@code maxRemovals} tells the store there may be
   * more: it repeats the write, letting the writes queued meanwhile go first.
   */
  static final class Deliveries extends WriteOp<Long> {
    /** Most finished deliveries one write's age check examines. */
    static final int AGE_CHECKS_PER_WRITE = 2_000;
    /**
     * Most deliveries one write removes: a trim call that has more to remove repeats the write (each holds the
     * writer thread for some milliseconds; 100,000 in one write held it for 0.3-0.4 s).
     */
    static final int REMOVALS_PER_WRITE = 1_000;

    private final Retention retention;
    private final long nowMs;
    private final int maxRemovals;
    private final AtomicLong cursor;
    private final AtomicLong countCursor;

    /**
     * @param cursor where the previous age check stopped (the store's, across calls)
     * @param countCursor the seq after which the removal by count goes on: 0 for a call's first write, then where
     *     the previous write of the same call stopped, so that no write walks again over what those removed
     */
    Deliveries(Context c, Retention retention, long nowMs, int maxRemovals, AtomicLong cursor,
        AtomicLong countCursor) {
      super(c);
      this.retention = retention;
      this.nowMs = nowMs;
      this.maxRemovals = maxRemovals;
      this.cursor = cursor;
      this.countCursor = countCursor;
    }

    @Override
    Long apply(WriteGroup g) throws RocksDBException {
      long[] counts = g.counts();
      long finished = counts[DeliveryState.SUCCEEDED.ordinal()] + counts[DeliveryState.DEAD.ordinal()];
      if (finished == 0) {
        return 0L;
      }
      long cutoff = retention.cutoff(nowMs);
      g.guard.check();
      long removed = finished > retention.maxCount()
          ? removeOldest(g, Math.min(finished - retention.maxCount(), maxRemovals), countCursor) : 0;
      if (removed >= maxRemovals) {
        return removed;
      }
      long last = cursor.get();
      try (FinishedDeliveries it = new FinishedDeliveries(g.db, last)) {
        boolean more = false;
        for (long examined = 0; examined < AGE_CHECKS_PER_WRITE && removed < maxRemovals && (more = it.next());
            examined++) {
          last = it.seq();
          long updatedAt = it.updatedAt();
          if (!g.deliveryChanged(it.seq()) && updatedAt != Long.MIN_VALUE) {
            if (updatedAt < cutoff) {
              g.deleteDelivery(it.seq(), it.state());
              removed++;
            }
            continue;
          }
          Delivery d = g.currentDelivery(it.seq());
          if (d == null || d.state() == DeliveryState.PENDING) {
            continue;
          }
          if (d.updatedAt() < cutoff) {
            g.deleteDelivery(d);
            removed++;
          } else if (!g.deliveryChanged(d.seq())) {
            g.indexUpdatedAt(d);
          }
        }
        if (!more) {
          last = 0; // the end: the next call starts from the oldest again
        }
      }
      cursor.set(last);
      return removed;
    }

    /**
     * Removes the {@code n} oldest finished deliveries after {@code from} (fewer if fewer are stored), and moves
     * {@code from} to the last seq it went over; returns how many it removed.
     */
    private static long removeOldest(WriteGroup g, long n, AtomicLong from)
        throws RocksDBException {
      long removed = 0;
      try (FinishedDeliveries it = new FinishedDeliveries(g.db, from.get())) {
        while (removed < n && it.next()) {
          from.set(it.seq());
          if (!g.deliveryChanged(it.seq())) {
            g.deleteDelivery(it.seq(), it.state());
            removed++;
            continue;
          }
          Delivery d = g.currentDelivery(it.seq());
          if (d != null && d.state() != DeliveryState.PENDING) {
            g.deleteDelivery(d);
            removed++;
          }
        }
      }
      return removed;
    }
  }
}
