package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerTable;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.CapacityExceeded;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.tickwheel.server.scheduler.WriteOutcome.Replaced;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * The import's write ({@link Scheduler#restoreAll}): timers that come with their whole state (due time, firing count,
 * creation time, pause) are created or replaced as they are, in one atomic store write, then armed. A due time already
 * passed fires at the next turn of the fire loop, a periodic timer then following its {@code misfire} rule, as at
 * recovery.
 *
 * <p><b>Owner context only</b> (not thread safe); futures complete there and never fail.
 */
final class RestoreWrite {

  private final ReadBack readBack;
  private final TimerTable store;
  private final PendingTimers pending;
  private final SchedulerOptions opts;

  RestoreWrite(Vertx vertx, TimerTable store, PendingTimers pending, SchedulerOptions opts) {
    this.readBack = new ReadBack(vertx, store, pending);
    this.store = store;
    this.pending = pending;
    this.opts = opts;
  }

  /** See {@link Scheduler#restoreAll}. */
  Future<List<WriteOutcome>> restoreAll(List<Timer> timers) {
    int n = timers.size();
    HashSet<String> ids = new HashSet<>(n * 2);
    for (Timer t : timers) {
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("restoreAll: id \"" + t.id() + "\" is repeated");
      }
    }
    List<Future<Boolean>> holds = new ArrayList<>(n);
    for (Timer t : timers) {
      holds.add(pending.hold(t.id(), opts.lockTimeoutMs()));
    }
    return Future.join(holds).transform(ignored -> {
      WriteOutcome[] out = new WriteOutcome[n];
      Timer[] olds = new Timer[n];
      List<Integer> held = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Future<Boolean> h = holds.get(i);
        if (h.succeeded() && h.result()) {
          held.add(i);
        } else {
          out[i] = new Busy(timers.get(i).id());
        }
      }
      // room: what the cap leaves once every held id has its one place (the held ones are counted by size())
      int replacing = 0;
      for (int i : held) {
        olds[i] = pending.disarm(timers.get(i).id());
        if (olds[i] != null) {
          replacing++;
        }
      }
      long room = opts.maxPending() - (pending.size() - held.size()) - replacing;
      List<Timer> write = new ArrayList<>(held.size());
      List<Integer> written = new ArrayList<>(held.size());
      for (int i : held) {
        Timer t = timers.get(i);
        if (olds[i] == null) {
          if (room <= 0) {
            out[i] = new CapacityExceeded(opts.maxPending());
            pending.release(t.id());
            continue;
          }
          room--;
        }
        Timer stored = t.withGeneration(olds[i] == null ? 1 : olds[i].generation() + 1);
        write.add(stored);
        written.add(i);
      }
      if (write.isEmpty()) {
        return Future.succeededFuture(Arrays.asList(out));
      }
      return store.putAll(write).transform(ar -> {
        for (int k = 0; k < write.size(); k++) {
          int i = written.get(k);
          Timer t = write.get(k);
          if (ar.succeeded()) {
            pending.arm(t);
            pending.release(t.id());
            out[i] = olds[i] == null ? new Created(t) : new Replaced(t);
          } else {
            readBack.failed(ar.cause(), t.id(), olds[i]);
            out[i] = Refusal.ofStoreFailure(ar.cause(), true);
          }
        }
        return Future.succeededFuture(Arrays.asList(out));
      });
    });
  }
}
