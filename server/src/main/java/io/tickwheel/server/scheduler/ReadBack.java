package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.TimerTable;
import io.vertx.core.AsyncResult;
import io.vertx.core.Vertx;

/**
 * Settles a held id after its store write, when memory and store may disagree: a write whose failure
 * {@link StoreException#mayHaveApplied() may have been applied} (its answer lost, a Redis replica acknowledgement that
 * timed out), or a firing the store refused as stale. The timer is read back and exactly what the store keeps is armed
 * (nothing if it keeps nothing), then the id is released; a read that fails is tried again after {@link Backoff}, the
 * id held meanwhile: writes of it wait for the first read, and once a read failed they answer busy at once (the store
 * is down; {@link PendingTimers#stall}) until a read succeeds. So a timer the store keeps is armed
 * and fires at its stored due time, not only after a restart. A failure that applied nothing restores the state
 * memory had.
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class ReadBack {

  private final Vertx vertx;
  private final TimerTable store;
  private final PendingTimers pending;

  ReadBack(Vertx vertx, TimerTable store, PendingTimers pending) {
    this.vertx = vertx;
    this.store = store;
    this.pending = pending;
  }

  /** Releases held {@code id} after a write that stored nothing new for it, or {@link #failed} after a failure. */
  void settle(AsyncResult<?> write, String id) {
    if (write.succeeded()) {
      pending.release(id);
    } else {
      failed(write.cause(), id, null);
    }
  }

  /**
   * After held {@code id}'s write failed with {@code cause}: reads it back if the write may have been applied, else
   * arms {@code old} again (the state before the write; {@code null}: none) and releases the id.
   */
  void failed(Throwable cause, String id, Timer old) {
    if (cause instanceof StoreException e && e.mayHaveApplied()) {
      adopt(id, null, 0);
      return;
    }
    if (old != null) {
      pending.arm(old);
    }
    pending.release(id);
  }

  /**
   * After the create-if-absent of held {@code ours} failed with {@code cause} ({@link DueIndex#createAbsent}): reads
   * it back if the write may have been applied and arms it if the store keeps the timer that write created; a timer
   * of that id the store kept before is far (counted so already) and stays so. Else releases the id.
   */
  void failedCreate(Throwable cause, Timer ours) {
    if (cause instanceof StoreException e && e.mayHaveApplied()) {
      adopt(ours.id(), ours, 0);
      return;
    }
    pending.release(ours.id());
  }

  /** Reads held {@code id} back, arms what the store keeps, releases it. */
  void adopt(String id) {
    adopt(id, null, 0);
  }

  /**
   * Reads held {@code id} back and arms what the store keeps, only if it is {@code ours} (the timer a
   * create-if-absent made) when that is given, then releases the id; a failed read is tried again after
   * {@link Backoff}.
   */
  private void adopt(String id, Timer ours, int attempt) {
    store.get(id).onComplete(ar -> {
      if (ar.failed()) {
        pending.stall(id);
        vertx.setTimer(Backoff.delayMs(attempt), t -> adopt(id, ours, attempt + 1));
        return;
      }
      Timer s = ar.result();
      if (s != null && (ours == null || sameCreate(s, ours))) {
        pending.arm(s);
      }
      pending.release(id);
    });
  }

  private static boolean sameCreate(Timer stored, Timer ours) {
    return stored.createdAt() == ours.createdAt() && stored.generation() == ours.generation()
        && stored.nextDueAt() == ours.nextDueAt() && stored.topic().equals(ours.topic());
  }
}
