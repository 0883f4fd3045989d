package io.tickwheel.server.scheduler;

import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.AsyncResult;
import io.vertx.core.Vertx;

/**
 * After a store write whose failure {@link StoreException#mayHaveApplied() may have been applied} (its answer lost, a
 * Redis replica acknowledgement that timed out), memory and store may disagree about the id: the write's caller keeps
 * the id held, and this reads the timer back and arms exactly what the store keeps (nothing if it keeps nothing),
 * then releases the id; a read that fails is tried again after {@link Backoff}, the id held meanwhile (writes of it
 * wait, and answer busy after their lock timeout). So a timer the store keeps is armed and fires at its stored due
 * time, not only after a restart.
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class ReadBack {

  private final Vertx vertx;
  private final TimerStore store;
  private final PendingTimers pending;

  ReadBack(Vertx vertx, TimerStore store, PendingTimers pending) {
    this.vertx = vertx;
    this.store = store;
    this.pending = pending;
  }

  /** Whether {@code write} failed in a way that may have been applied. */
  static boolean uncertain(AsyncResult<?> write) {
    return write.failed() && uncertain(write.cause());
  }

  /** Whether {@code failure} may have been applied. */
  static boolean uncertain(Throwable failure) {
    return failure instanceof StoreException e && e.mayHaveApplied();
  }

  /** Releases held {@code id} after its write, or, if the write {@link #uncertain may have applied}, reads back first. */
  void settle(AsyncResult<?> write, String id) {
    if (uncertain(write)) {
      adopt(id, 0);
    } else {
      pending.release(id);
    }
  }

  /** Reads held {@code id} back, arms what the store keeps, releases it. */
  void adopt(String id) {
    adopt(id, 0);
  }

  private void adopt(String id, int attempt) {
    store.get(id).onComplete(ar -> {
      if (ar.failed()) {
        vertx.setTimer(Backoff.delayMs(attempt), t -> adopt(id, attempt + 1));
        return;
      }
      if (ar.result() != null) {
        pending.arm(ar.result());
      }
      pending.release(id);
    });
  }
}
