package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerTable;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.ChangedConcurrently;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.WriteOutcome.Touched;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The touch write: restarts a pending timer's countdown with one conditional store update
 * ({@link TimerTable#update} against the armed generation). When the store holds another state than memory (a write
 * that failed but was applied), it adopts the store's state and touches that once more. A touch whose own write may
 * have been applied (its answer lost) answers 503 and leaves the id to {@link ReadBack}, which arms what the store keeps.
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
 */
final class TouchWrite {

  private final TimerTable store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final long lockTimeoutMs;
  private final ReadBack readBack;

  TouchWrite(io.vertx.core.Vertx vertx, TimerTable store, PendingTimers pending, LongSupplier clock,
      long lockTimeoutMs) {
    this.readBack = new ReadBack(vertx, store, pending);
    this.store = store;
    this.pending = pending;
    this.clock = clock;
    this.lockTimeoutMs = lockTimeoutMs;
  }

  /** See {@link Scheduler#touch}. */
  Future<WriteOutcome> touch(String id, Long delayOverride) {
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
        return touchHeld(id, old, delayOverride);
      });
    });
  }

  /** Touch of held {@code id}, whose state {@code old} was taken out. */
  private Future<WriteOutcome> touchHeld(String id, Timer old, Long delayOverride) {
    Timer next = Schedule.touch(old, clock.getAsLong(), delayOverride);
    return store.update(next, old.generation()).transform(ar -> {
      if (ar.failed()) {
        readBack.failed(ar.cause(), id, old);
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
  }

  /**
   * See {@link Scheduler#touchAll}. Every distinct id is held (in one pass, so batches queue for ids in arrival
   * order and never wait on each other in a cycle); once all holds are settled, the held ones are touched with one
   * {@link TimerTable#updateAll}. An item the store refuses as stale takes {@link #adoptStored}'s path on its own.
   */
  Future<List<WriteOutcome>> touchAll(List<String> ids, Long delayOverride) {
    Map<String, Integer> first = new HashMap<>(ids.size() * 2);
    List<String> distinct = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (first.putIfAbsent(id, distinct.size()) == null) {
        distinct.add(id);
      }
    }
    WriteOutcome[] out = new WriteOutcome[distinct.size()];
    List<Future<Boolean>> holds = new ArrayList<>(distinct.size());
    for (int i = 0; i < distinct.size(); i++) {
      String id = distinct.get(i);
      if (!pending.mayExist(id)) {
        out[i] = new NotFound(id);
        holds.add(Future.succeededFuture(false));
      } else {
        holds.add(pending.hold(id, lockTimeoutMs));
      }
    }
    return Future.join(holds).compose(ignored -> takeAll(distinct, holds, out)).transform(takenAr -> {
      Timer[] taken = takenAr.result();
      List<Timer> olds = new ArrayList<>();
      List<Timer> next = new ArrayList<>();
      List<Integer> at = new ArrayList<>();
      long now = clock.getAsLong();
      for (int i = 0; i < distinct.size(); i++) {
        if (out[i] != null) {
          continue;
        }
        String id = distinct.get(i);
        if (!holds.get(i).result()) {
          out[i] = new Busy(id);
          continue;
        }
        Timer old = taken[i];
        if (old == null) {        // it ended (fired its last) while we waited, or was never there
          pending.release(id);
          out[i] = new NotFound(id);
          continue;
        }
        olds.add(old);
        next.add(Schedule.touch(old, now, delayOverride));
        at.add(i);
      }
      if (next.isEmpty()) {
        return Future.succeededFuture(inRequestOrder(ids, first, out));
      }
      long[] gens = new long[olds.size()];
      for (int k = 0; k < gens.length; k++) {
        gens[k] = olds.get(k).generation();
      }
      return store.updateAll(next, gens).compose(stored -> {
        List<Future<WriteOutcome>> retries = new ArrayList<>();
        for (int k = 0; k < stored.size(); k++) {
          Timer touched = stored.get(k);
          Timer old = olds.get(k);
          int i = at.get(k);
          if (touched != null) {
            pending.arm(touched);
            pending.release(old.id());
            out[i] = new Touched(touched);
          } else {
            retries.add(adoptStored(old.id(), old, delayOverride).onSuccess(o -> out[i] = o));
          }
        }
        return Future.join(retries).transform(r -> Future.succeededFuture(inRequestOrder(ids, first, out)));
      }, failed -> {
        Refusal r = Refusal.ofStoreFailure(failed, true);
        for (int k = 0; k < olds.size(); k++) {
          readBack.failed(failed, olds.get(k).id(), olds.get(k));
          out[at.get(k)] = r;
        }
        return Future.succeededFuture(inRequestOrder(ids, first, out));
      });
    });
  }

  /**
   * Takes the state of every held id of {@code distinct} out ({@link PendingTimers#take}); an id whose far state could
   * not be read gets its store failure in {@code out} and {@code null}. Never fails.
   */
  private Future<Timer[]> takeAll(List<String> distinct, List<Future<Boolean>> holds, WriteOutcome[] out) {
    Timer[] taken = new Timer[distinct.size()];
    List<Future<Timer>> reads = new ArrayList<>();
    for (int i = 0; i < distinct.size(); i++) {
      if (out[i] != null || !holds.get(i).result()) {
        continue;
      }
      int at = i;
      reads.add(pending.take(distinct.get(i)).andThen(ar -> {
        if (ar.succeeded()) {
          taken[at] = ar.result();
        } else {
          pending.release(distinct.get(at));
          out[at] = Refusal.ofStoreFailure(ar.cause(), false);
        }
      }));
    }
    return Future.join(reads).transform(x -> Future.succeededFuture(taken));
  }

  /** One outcome per requested id, in request order; a repeated id gets its first occurrence's outcome. */
  private static List<WriteOutcome> inRequestOrder(List<String> ids, Map<String, Integer> first, WriteOutcome[] out) {
    List<WriteOutcome> all = new ArrayList<>(ids.size());
    for (String id : ids) {
      all.add(out[first.get(id)]);
    }
    return all;
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
