package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.CapacityExceeded;
import io.tickwheel.server.scheduler.Refusal.Conflict;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.WriteOutcome.Cancelled;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.scheduler.WriteOutcome.Replaced;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The create, create-many, replace and cancel writes of the {@link Scheduler} (touch is {@link TouchWrite}):
 * validated definition → {@link Schedule#accept} → durable store write → armed → outcome. The scheduler checks
 * that recovery has finished before calling in.
 *
 * <p><b>A write that may have been applied.</b> When the store fails a write with
 * {@link io.tickwheel.core.store.StoreException#mayHaveApplied()}, the caller gets that 503 and the id stays held while
 * {@link ReadBack} arms exactly what the store keeps (a create whose answer was lost used to stay in the store unarmed
 * until a restart).
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
 */
final class WritePath {

  private final ReadBack readBack;
  private final TimerStore store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final SchedulerOptions opts;

  WritePath(Vertx vertx, TimerStore store, PendingTimers pending, LongSupplier clock, SchedulerOptions opts) {
    this.readBack = new ReadBack(vertx, store, pending);
    this.store = store;
    this.pending = pending;
    this.clock = clock;
    this.opts = opts;
  }

  /** See {@link Scheduler#create}. */
  Future<WriteOutcome> create(TimerSpec spec) {
    String id = spec.id() != null ? spec.id() : pending.freshId();
    if (pending.exists(id)) {
      return Future.succeededFuture(new Conflict(id));
    }
    if (pending.size() >= opts.maxPending()) {
      return Future.succeededFuture(new CapacityExceeded(opts.maxPending()));
    }
    if (pending.windowed() && spec.id() != null) {
      // not in memory, but it may be far: the store creates it unless it keeps that id (then Conflict)
      pending.tryHold(id);
      Timer t = Schedule.accept(spec.withId(id), clock.getAsLong(), 1);
      List<WriteOutcome> out = new ArrayList<>(1);
      out.add(new Created(t));
      return writeAbsent(List.of(t), out).map(o -> o.get(0));
    }
    Timer t = Schedule.accept(spec.withId(id), clock.getAsLong(), 1);
    // createAll, not put: the id is neither armed nor held, so it is not stored either (every stored timer is
    // armed or held), and the store need not read an old version
    Future<Void> put = store.createAll(List.of(t));
    if (put.isComplete()) {
      // Answered at once (the memory store): nothing ran on this loop meanwhile, so there is nothing to hold off.
      if (put.failed()) {
        pending.tryHold(id);
        readBack.settle(put, id);   // a failure that may have been applied is read back, the id held meanwhile
      }
      return Future.succeededFuture(created(put, t));
    }
    // Held while the write is in flight: a concurrent create of this id gets Conflict, an update/delete waits.
    pending.tryHold(id);
    return put.transform(ar -> {
      WriteOutcome out = created(ar, t);
      readBack.settle(ar, id);
      return Future.succeededFuture(out);
    });
  }

  /** Settles a create's store write: arms {@code t} if it succeeded. */
  private WriteOutcome created(AsyncResult<Void> write, Timer t) {
    if (write.failed()) {
      return Refusal.ofStoreFailure(write.cause(), true);
    }
    pending.arm(t);
    return new Created(t);
  }

  /** See {@link Scheduler#createAll}. */
  Future<List<WriteOutcome>> createAll(List<TimerSpec> specs) {
    List<WriteOutcome> out = new ArrayList<>(specs.size());
    long now = clock.getAsLong();
    long room = opts.maxPending() - pending.size();
    List<Timer> accepted = new ArrayList<>();
    for (TimerSpec spec : specs) {
      String id = spec.id() != null ? spec.id() : pending.freshId();
      if (pending.exists(id)) {
        out.add(new Conflict(id));
      } else if (room <= 0) {
        out.add(new CapacityExceeded(opts.maxPending()));
      } else {
        room--;
        pending.tryHold(id);
        Timer t = Schedule.accept(spec.withId(id), now, 1);
        accepted.add(t);
        out.add(new Created(t));
      }
    }
    if (accepted.isEmpty()) {
      return Future.succeededFuture(out);
    }
    if (pending.windowed()) {
      return writeAbsent(accepted, out);   // ids not in memory may be far: the store creates only the absent ones
    }
    return write(accepted, out);
  }

  /** createAll's store write of {@code accepted} (held), then arms them; {@code out} holds their Created. */
  private Future<List<WriteOutcome>> write(List<Timer> accepted, List<WriteOutcome> out) {
    return store.createAll(accepted).transform(ar -> {
      for (Timer t : accepted) {
        if (ar.succeeded()) {
          pending.arm(t);
        }
        readBack.settle(ar, t.id());
      }
      if (ar.failed()) {
        Refusal r = Refusal.ofStoreFailure(ar.cause(), true);
        out.replaceAll(o -> o instanceof Created ? r : o);
      }
      return Future.succeededFuture(out);
    });
  }

  /**
   * createAll's store write with a window: {@code accepted} (held; {@code out} holds their Created) are created unless
   * the store keeps their id (a far timer: that one answers Conflict and stays as it is), in one store write; the
   * created ones are armed.
   */
  private Future<List<WriteOutcome>> writeAbsent(List<Timer> accepted, List<WriteOutcome> out) {
    return createAbsent(accepted).transform(ar -> {
      if (ar.failed()) {
        Refusal r = Refusal.ofStoreFailure(ar.cause(), true);
        for (Timer t : accepted) {
          readBack.failedCreate(ar.cause(), t);
        }
        out.replaceAll(o -> o instanceof Created ? r : o);
        return Future.succeededFuture(out);
      }
      java.util.Set<String> stored = ar.result();
      for (Timer t : accepted) {
        if (!stored.contains(t.id())) {
          pending.arm(t);
        }
        pending.release(t.id());
      }
      if (!stored.isEmpty()) {
        for (int i = 0; i < out.size(); i++) {
          if (out.get(i) instanceof Created c && stored.contains(c.timer().id())) {
            out.set(i, new Conflict(c.timer().id()));
          }
        }
      }
      return Future.succeededFuture(out);
    });
  }

  /** {@link DueIndex#createAbsent} of the store (a due index: there is a window), in calls of at most its limit. */
  private Future<java.util.Set<String>> createAbsent(List<Timer> timers) {
    DueIndex index = (DueIndex) store;
    if (timers.size() <= DueIndex.MAX_DUE_LIMIT) {
      return index.createAbsent(timers);
    }
    List<Future<java.util.Set<String>>> parts = new ArrayList<>();
    for (int i = 0; i < timers.size(); i += DueIndex.MAX_DUE_LIMIT) {
      parts.add(index.createAbsent(timers.subList(i, Math.min(timers.size(), i + DueIndex.MAX_DUE_LIMIT))));
    }
    return Future.join(parts).transform(ar -> {
      java.util.Set<String> found = new java.util.HashSet<>();
      for (Future<java.util.Set<String>> f : parts) {
        if (f.failed()) {
          return Future.failedFuture(f.cause());
        }
        found.addAll(f.result());
      }
      return Future.succeededFuture(found);
    });
  }

  /** See {@link Scheduler#upsert}. */
  Future<WriteOutcome> upsert(TimerSpec spec) {
    String id = spec.id();
    return pending.hold(id, opts.lockTimeoutMs()).compose(held -> {
      if (!held) {
        return Future.succeededFuture(new Busy(id));
      }
      return pending.take(id).transform(taken -> {
        if (taken.failed()) {
          pending.release(id);
          return Future.succeededFuture(Refusal.ofStoreFailure(taken.cause(), false));
        }
        return upsertHeld(spec, taken.result());
      });
    });
  }

  /** Upsert of held {@code spec.id()}, whose state {@code old} ({@code null}: none) was taken out. */
  private Future<WriteOutcome> upsertHeld(TimerSpec spec, Timer old) {
    String id = spec.id();
    if (old == null && pending.size() > opts.maxPending()) {   // size() counts this id's hold
      pending.release(id);
      return Future.succeededFuture(new CapacityExceeded(opts.maxPending()));
    }
    Timer accepted = Schedule.accept(spec, clock.getAsLong(), old == null ? 1 : old.generation() + 1);
    Timer t = old != null && old.paused() ? accepted.withPaused(true) : accepted;   // a replace keeps a pause
    return store.put(t).transform(ar -> {
      if (ar.succeeded()) {
        pending.arm(t);
        pending.release(id);
      } else {
        readBack.failed(ar.cause(), id, old);
      }
      return Future.succeededFuture(ar.failed() ? Refusal.ofStoreFailure(ar.cause(), true)
          : old == null ? new Created(t) : new Replaced(t));
    });
  }

  /** See {@link Scheduler#cancel}. */
  Future<WriteOutcome> cancel(String id) {
    if (!pending.mayExist(id)) {
      return Future.succeededFuture(new NotFound(id));
    }
    return pending.hold(id, opts.lockTimeoutMs()).compose(held -> {
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
        return removeHeld(id, old);
      });
    });
  }

  /** Cancel of held {@code id}, whose state {@code old} was taken out. */
  private Future<WriteOutcome> removeHeld(String id, Timer old) {
    return store.remove(id).transform(ar -> {
      if (ar.failed()) {
        readBack.failed(ar.cause(), id, old);
      } else {
        pending.release(id);
      }
      return Future.succeededFuture(ar.failed() ? Refusal.ofStoreFailure(ar.cause(), true)
          : ar.result() ? new Cancelled(id) : new NotFound(id));
    });
  }
}
