package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerTable;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.ChangedConcurrently;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.vertx.core.Future;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The pause and resume writes of one timer: hold it, compute its new state ({@link Schedule#pause},
 * {@link Schedule#resume}), one conditional store update ({@link TimerTable#update} against the armed generation),
 * arm the stored state (a paused timer goes to the paused set, out of the wheel) and release it.
 *
 * <p>When the store holds another state than memory (a write that failed but was applied), the store's state is
 * adopted and the answer is {@link ChangedConcurrently}: a retry works on the adopted state. A resume that leaves a
 * timer nothing due (its {@code endAt} passed while it was paused) ends it: it is removed, and the answer is
 * {@link NotFound}. A pause or resume whose own write may have been applied (its answer lost) answers 503 and leaves
 * the id to {@link ReadBack}, which arms what the store keeps (a resume whose answer was lost kept the timer paused
 * here, so it never fired until a restart).
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
 */
final class PauseWrite {

  private final TimerTable store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final long lockTimeoutMs;
  private final ReadBack readBack;

  PauseWrite(io.vertx.core.Vertx vertx, TimerTable store, PendingTimers pending, LongSupplier clock,
      long lockTimeoutMs) {
    this.readBack = new ReadBack(vertx, store, pending);
    this.store = store;
    this.pending = pending;
    this.clock = clock;
    this.lockTimeoutMs = lockTimeoutMs;
  }

  /** See {@link Scheduler#pause}. */
  Future<WriteOutcome> pause(String id) {
    return change(id, Schedule::pause, WriteOutcome.Paused::new);
  }

  /** See {@link Scheduler#resume}. */
  Future<WriteOutcome> resume(String id) {
    return change(id, t -> Schedule.resume(t, clock.getAsLong()), WriteOutcome.Resumed::new);
  }

  /**
   * Holds {@code id}, runs {@code change} on its armed state ({@code null}: it ends), stores and arms the result.
   */
  private Future<WriteOutcome> change(String id, Function<Timer, Timer> change, Function<Timer, WriteOutcome> done) {
    if (!pending.mayExist(id)) {
      return Future.succeededFuture(new NotFound(id));
    }
    return pending.hold(id, lockTimeoutMs).compose(held -> {
      if (!held) {
        return Future.succeededFuture(new Busy(id));
      }
      return pending.take(id).transform(taken -> {
        Timer old = taken.succeeded() ? taken.result() : null;
        if (old == null) {        // it ended (fired its last) while we waited, or was never there
          pending.release(id);
          return Future.succeededFuture(taken.failed() ? Refusal.ofStoreFailure(taken.cause(), false)
              : new NotFound(id));
        }
        return changeHeld(id, old, change, done);
      });
    });
  }

  /** {@link #change} of held {@code id}, whose state {@code old} was taken out. */
  private Future<WriteOutcome> changeHeld(String id, Timer old, Function<Timer, Timer> change,
    Function<Timer, WriteOutcome> done) {
    Timer next = change.apply(old);
    if (next == null) {
      return end(id, old);
    }
    return store.update(next, old.generation()).transform(ar -> {
      if (ar.failed()) {
        readBack.failed(ar.cause(), id, old);   // a lost resume must not stay paused here
        return Future.succeededFuture(Refusal.ofStoreFailure(ar.cause(), true));
      }
      if (ar.result() != null) {
        pending.arm(ar.result());
        pending.release(id);
        return Future.succeededFuture(done.apply(ar.result()));
      }
      return adoptStored(id, old);
    });
  }

  /** A resumed timer with nothing left due: removed. */
  private Future<WriteOutcome> end(String id, Timer old) {
    return store.remove(id).transform(ar -> {
      if (ar.failed()) {
        readBack.failed(ar.cause(), id, old);
      } else {
        pending.release(id);
      }
      return Future.succeededFuture(ar.failed() ? Refusal.ofStoreFailure(ar.cause(), true) : new NotFound(id));
    });
  }

  /** The store refused the update as stale: adopt its state of held {@code id}. */
  private Future<WriteOutcome> adoptStored(String id, Timer old) {
    return store.get(id).transform(g -> {
      if (g.failed()) {
        pending.arm(old);
        pending.release(id);
        return Future.succeededFuture(Refusal.ofStoreFailure(g.cause(), false));
      }
      if (g.result() != null) {
        pending.arm(g.result());
      }
      pending.release(id);
      return Future.succeededFuture(g.result() == null ? new NotFound(id) : new ChangedConcurrently(id));
    });
  }
}
