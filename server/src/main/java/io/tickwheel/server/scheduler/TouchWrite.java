package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.ChangedConcurrently;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.WriteOutcome.Touched;
import io.vertx.core.Future;
import java.util.function.LongSupplier;

/**
 * The touch write: restarts a pending timer's countdown with one conditional store update
 * ({@link TimerStore#update} against the armed generation). When the store holds another state than memory (a write
 * that failed but was applied), it adopts the store's state and touches that once more.
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
 */
final class TouchWrite {

  private final TimerStore store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final long lockTimeoutMs;

  TouchWrite(TimerStore store, PendingTimers pending, LongSupplier clock, long lockTimeoutMs) {
    this.store = store;
    this.pending = pending;
    this.clock = clock;
    this.lockTimeoutMs = lockTimeoutMs;
  }

  /** See {@link Scheduler#touch}. */
  Future<WriteOutcome> touch(String id, Long delayOverride) {
    if (!pending.exists(id)) {
      return Future.succeededFuture(new NotFound(id));
    }
    return pending.hold(id, lockTimeoutMs).compose(held -> {
      if (!held) {
        return Future.succeededFuture(new Busy(id));
      }
      Timer old = pending.disarm(id);
      if (old == null) {          // it ended (fired its last) while we waited
        pending.release(id);
        return Future.succeededFuture(new NotFound(id));
      }
      Timer next = Schedule.touch(old, clock.getAsLong(), delayOverride);
      return store.update(next, old.generation()).transform(ar -> {
        if (ar.failed()) {
          pending.arm(old);
          pending.release(id);
          return Future.succeededFuture(Refusal.ofStoreFailure(ar.cause(), true));
        }
        Timer touched = ar.result();    // the stored timer, payload included: one store round trip
        if (touched != null) {
          pending.arm(touched);
          pending.release(id);
          return Future.succeededFuture(new Touched(touched));
        }
        return adoptStored(id, old, delayOverride);
      });
    });
  }

  /** The store refused the update as stale: adopt its state of held {@code id}, touch that once. */
  private Future<WriteOutcome> adoptStored(String id, Timer old, Long delayOverride) {
    return store.get(id).transform(g -> {
      if (g.failed()) {
        pending.arm(old);
        pending.release(id);
        return Future.succeededFuture(Refusal.ofStoreFailure(g.cause(), false));
      }
      Timer stored = g.result();
      if (stored == null) {
        pending.release(id);
        return Future.succeededFuture(new NotFound(id));
      }
      Timer retry = Schedule.touch(stored, clock.getAsLong(), delayOverride);
      return store.update(retry, stored.generation()).transform(u -> {
        Timer retried = u.succeeded() ? u.result() : null;
        pending.arm(retried != null ? retried : stored);
        pending.release(id);
        if (retried != null) {
          return Future.succeededFuture(new Touched(retried));
        }
        return Future.succeededFuture(u.failed() ? Refusal.ofStoreFailure(u.cause(), true)
            : new ChangedConcurrently(id));
      });
    });
  }
}
