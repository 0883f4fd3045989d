package io.tickwheel.server.scheduler;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Per-timer-id mutual exclusion for the owner event loop: at most one operation (a write from the API, or the
 * settlement of a firing) works on an id at a time; the others queue in arrival order. No threads are blocked:
 * a waiter gets a future.
 *
 * <p><b>Owner thread only</b> (not thread safe). A waiter that does not get the lock within its timeout gets
 * {@code false} (the store is slow or down), so no request hangs; on a {@link #stall stalled} id it gets {@code false}
 * at once.
 */
final class IdLocks {

  private static final class Waiter {
    final Promise<Boolean> promise = Promise.promise();
    long timerId = -1;
  }

  private final Vertx vertx;
  /** Held ids; the value is the queue of waiters, {@code null} when nobody waits. */
  private final Map<String, ArrayDeque<Waiter>> held = new HashMap<>();
  /** Held ids whose holder waits for the store to answer at all: nobody waits for them. */
  private final Set<String> stalled = new HashSet<>();

  IdLocks(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Whether an operation holds {@code id}. */
  boolean isHeld(String id) {
    return held.containsKey(id);
  }

  /** Number of held ids. */
  int size() {
    return held.size();
  }

  /** Takes {@code id} if free; returns whether it was taken. */
  boolean tryLock(String id) {
    if (held.containsKey(id)) {
      return false;
    }
    held.put(id, null);
    return true;
  }

  /**
   * Takes {@code id}, now if free, else after the operations ahead of this one release it.
   *
   * @param timeoutMs how long to wait at most
   * @return {@code true} once the id is this caller's (release it with {@link #unlock}), {@code false} if the
   *     timeout passed first (then the caller holds nothing); never fails
   */
  Future<Boolean> lock(String id, long timeoutMs) {
    if (tryLock(id)) {
      return Future.succeededFuture(true);
    }
    if (stalled.contains(id)) {
      return Future.succeededFuture(false);
    }
    ArrayDeque<Waiter> q = held.get(id);
    if (q == null) {
      q = new ArrayDeque<>(2);
      held.put(id, q);
    }
    Waiter w = new Waiter();
    q.add(w);
    ArrayDeque<Waiter> queue = q;
    w.timerId = vertx.setTimer(timeoutMs, t -> {
      if (queue.remove(w)) {
        w.promise.complete(false);
      }
    });
    return w.promise.future();
  }

  /**
   * Held {@code id} will not be released soon (its holder waits for an unreachable store): its waiters get
   * {@code false} now, and so does every {@link #lock} of it until {@link #unlock}.
   */
  void stall(String id) {
    if (!held.containsKey(id)) {
      return;
    }
    stalled.add(id);
    ArrayDeque<Waiter> q = held.put(id, null);
    if (q != null) {
      for (Waiter w : q) {
        if (w.timerId >= 0) {
          vertx.cancelTimer(w.timerId);
        }
        w.promise.complete(false);
      }
    }
  }

  /** Releases {@code id}: hands it to the next waiter (which runs now, on this thread) or frees it. */
  void unlock(String id) {
    if (!stalled.isEmpty()) {   // empty but after a store outage: no look-up on the hot path
      stalled.remove(id);
    }
    ArrayDeque<Waiter> q = held.get(id);
    if (q == null || q.isEmpty()) {
      held.remove(id);
      return;
    }
    Waiter next = q.poll();
    if (next.timerId >= 0) {
      vertx.cancelTimer(next.timerId);
    }
    next.promise.complete(true);
  }
}
