package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.DeliveryState;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The finished deliveries as the database holds them, in seq order: the succeeded and the dead state indexes
 * ({@link Keys#deliveryState}) read side by side and merged, so pending ones cost nothing. Each entry gives its seq,
 * its state and, when the index entry carries it, the delivery's {@code updatedAt} ({@link Keys#indexedUpdatedAt}),
 * so a check of age needs no read of the record. What a write group changed and has not written yet is not seen:
 * callers ask the group about an entry before acting on it.
 *
 * <p>Writer thread only; close it.
 */
final class FinishedDeliveries implements AutoCloseable {

  private static final int SUCCEEDED = DeliveryState.SUCCEEDED.ordinal();
  private static final int DEAD = DeliveryState.DEAD.ordinal();

  private final ReadOptions ro;
  private final RocksIterator succeeded;
  private final RocksIterator dead;
  private long seq;
  private DeliveryState state;
  private long updatedAt;

  /** Positioned before the first finished delivery whose seq is above {@code afterSeq}. */
  FinishedDeliveries(Db db, long afterSeq) {
    this.ro = new ReadOptions().setFillCache(false);
    this.succeeded = db.db.newIterator(db.meta, ro);
    this.dead = db.db.newIterator(db.meta, ro);
    succeeded.seek(Keys.deliveryState(SUCCEEDED, afterSeq + 1));
    dead.seek(Keys.deliveryState(DEAD, afterSeq + 1));
  }

  /**
   * Moves to the next finished delivery.
   *
   * @return false at the end
   * @throws RocksDBException when an iterator failed
   */
  boolean next() throws RocksDBException {
    long a = seqAt(succeeded, SUCCEEDED);
    long b = seqAt(dead, DEAD);
    if (a < 0 && b < 0) {
      succeeded.status();
      dead.status();
      return false;
    }
    boolean fromSucceeded = b < 0 || (a >= 0 && a < b);
    RocksIterator it = fromSucceeded ? succeeded : dead;
    seq = fromSucceeded ? a : b;
    state = fromSucceeded ? DeliveryState.SUCCEEDED : DeliveryState.DEAD;
    updatedAt = Keys.indexedUpdatedAt(it.value());
    it.next();
    return true;
  }

  private static long seqAt(RocksIterator it, int state) {
    return it.isValid() && Keys.isDeliveryState(it.key(), state) ? Keys.seqOfDeliveryState(it.key()) : -1;
  }

  /** The current entry's seq. */
  long seq() {
    return seq;
  }

  /** The current entry's state (succeeded or dead). */
  DeliveryState state() {
    return state;
  }

  /** The current entry's {@code updatedAt} (epoch ms), or {@link Long#MIN_VALUE} when its index entry lacks it. */
  long updatedAt() {
    return updatedAt;
  }

  @Override
  public void close() {
    succeeded.close();
    dead.close();
    ro.close();
  }
}
