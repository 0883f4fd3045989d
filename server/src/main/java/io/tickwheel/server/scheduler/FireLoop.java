package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.DueDecision;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.server.metrics.Metrics;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The fire path: advance → decide → record → settle → publish.
 *
 * <p>Each turn advances the wheel to the clock's now, handing out at most {@code turnLimit} due timers (each is
 * <em>held</em> from then on, see {@link PendingTimers}); each gets a {@link Schedule#onDue} decision; one
 * {@link TimerStore#recordFirings} call records the whole turn (group commit); then applied timers are re-armed with
 * their next state, and recorded firings are published in seq order. One batch is in flight at a time (which keeps
 * publication in seq order); if the limit was hit the next turn follows at once, as a new event-loop task, so a
 * burst drains over several turns without holding the event loop. A failed batch is retried with {@link Backoff}
 * until the store is back; its timers stay held, the others stay armed: an accepted timer is never dropped. A firing
 * the store refuses as stale (memory and store disagree, after a write that failed but was applied) makes the loop
 * re-read that id from the store and adopt its state, retrying with the same backoff.
 *
 * <p>A due timer of a paused topic is parked ({@link PendingTimers#park}) rather than decided: nothing is recorded,
 * and the topic's resume arms it again. Timers asked to fire now ({@link #fireNow}) join the next turn's batch.
 *
 * <p>Driving: once {@link #start}ed, {@link WakeUp} decides when to turn. Not started (unit tests), it turns only
 * when {@link #drain} is called.
 *
 * <p><b>Owner context only</b> (not thread safe); time only through the injected clock.
 */
final class FireLoop {

  private static final System.Logger LOG = System.getLogger(FireLoop.class.getName());
  /** How long {@link #stop} waits for the batch in flight, s. */
  static final long STOP_WAIT_S = 2;

  /**
   * A timer handed out by the wheel, or asked to fire now, and what it does now.
   *
   * @param asked who asked to fire it now ({@link #fireNow}), or {@code null} for a timer the wheel handed out
   */
  private record Due(Timer timer, DueDecision decision, Promise<WriteOutcome> asked) {}

  /** A held timer waiting for the next turn to fire out of its schedule. */
  private record FireNow(Timer timer, Promise<WriteOutcome> asked) {}

  private final Vertx vertx;
  private final Context owner;
  private final TimerStore store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final SchedulerOptions opts;
  private final Metrics metrics;
  private final WakeUp wakeUp;
  private Consumer<Firing> publisher = f -> { };
  private Consumer<Delivery> deliveries = d -> { };
  private Predicate<String> topicPaused = topic -> false;
  private final ArrayDeque<FireNow> fireNows = new ArrayDeque<>();

  private boolean stopped;
  private final ArrayList<Due> collecting = new ArrayList<>();
  private long turnNow;
  private final ExpiryHandler<Timer> collector = this::collect;
  private boolean batchInFlight;
  private Promise<Void> batchDone;
  private long published;
  private long failedBatches;

  FireLoop(Vertx vertx, Context owner, TimerStore store, PendingTimers pending, LongSupplier clock,
      SchedulerOptions opts, Metrics metrics) {
    this.vertx = vertx;
    this.owner = owner;
    this.store = store;
    this.pending = pending;
    this.clock = clock;
    this.opts = opts;
    this.metrics = metrics;
    this.wakeUp = new WakeUp(vertx, owner, clock, pending::nextExpiryAtMs, this::turn);
    pending.onArmed(wakeUp::armed);
  }

  /** Where recorded firings go, in seq order, on the owner context. */
  void onFiring(Consumer<Firing> p) {
    this.publisher = p;
  }

  /** Where the pending deliveries recorded with firings (timers with a callback) go, on the owner context. */
  void onDelivery(Consumer<Delivery> c) {
    this.deliveries = c;
  }

  /** Which topics are paused: their due timers are parked ({@link PendingTimers#park}) instead of fired. */
  void topicPaused(Predicate<String> paused) {
    this.topicPaused = paused;
  }

  /**
   * Fires held timer {@code t} once now, out of its schedule ({@link Schedule#fireNow}), through the normal path: in
   * the next turn's batch, recorded in the firing log, published, then re-armed with its next state (a {@code once}
   * timer ends) and released. Its topic's pause does not hold it back (an explicit request). Driven, the turn runs
   * soon; not driven (unit tests), at the next {@link #drain}.
   *
   * @param t a timer the caller holds and has taken out of the wheel (it is released here)
   * @return {@link WriteOutcome.FiredNow} with the timer after the firing (its payload from the firing), or
   *     {@link Refusal.ChangedConcurrently} when the store's state differed (the store's state is adopted), or the
   *     store's failure when shutting down while it was failing
   */
  Future<WriteOutcome> fireNow(Timer t) {
    Promise<WriteOutcome> p = Promise.promise();
    fireNows.add(new FireNow(t, p));
    if (wakeUp.running()) {
      wakeUp.turnSoon();
    }
    return p.future();
  }

  /** Starts driving itself (after recovery): the first turn runs soon. */
  void start() {
    wakeUp.start();
  }

  /** Stops driving; the returned future completes when the batch in flight settles, or after 2 s at most. */
  Future<Void> stop() {
    stopped = true;
    wakeUp.stop();
    while (!fireNows.isEmpty()) {
      fireNows.poll().asked().tryComplete(new Refusal.StoreUnavailable("the server is stopping", true, false));
    }
    if (batchInFlight) {
      return batchDone.future().timeout(STOP_WAIT_S, TimeUnit.SECONDS).otherwiseEmpty();
    }
    return Future.succeededFuture();
  }

  /** Firings recorded and published since start. */
  long published() {
    return published;
  }

  /** Firing batches that failed and were retried since start. */
  long failedBatches() {
    return failedBatches;
  }

  /**
   * Runs turns until nothing is due at the clock's now and no batch is in flight (each turn a new event-loop task).
   *
   * @return how many timers were handed out
   */
  Future<Integer> drain() {
    return drain(0);
  }

  private Future<Integer> drain(int sofar) {
    if (batchInFlight) {
      return batchDone.future().compose(v -> drain(sofar));
    }
    int n = advanceOnce();
    if (n == 0) {
      return Future.succeededFuture(sofar);
    }
    // every timer handed out may have been parked (its topic is paused): no batch then
    Future<Void> settled = batchInFlight ? batchDone.future() : Future.succeededFuture();
    return settled.compose(v -> {
      Promise<Integer> next = Promise.promise();
      owner.runOnContext(x -> drain(sofar + n).onComplete(next));
      return next.future();
    });
  }

  // ------------------------------------------------------------------ turns

  private void turn() {
    if (!wakeUp.running() || batchInFlight) {
      return;
    }
    int n = advanceOnce();
    if (n == 0) {
      wakeUp.sleep();
    } else if (!batchInFlight) {
      wakeUp.turnSoon();       // all of them were parked (their topic is paused): no batch will call for a turn
    }
  }

  // ------------------------------------------------------------------ advance → decide → record

  /**
   * Hands out up to {@code turnLimit} due timers, takes the timers asked to fire now, and starts recording them;
   * returns how many.
   */
  private int advanceOnce() {
    turnNow = clock.getAsLong();
    int n = pending.advance(turnNow, collector, opts.turnLimit());
    while (!fireNows.isEmpty()) {
      FireNow f = fireNows.poll();
      collecting.add(new Due(f.timer(), Schedule.fireNow(f.timer(), turnNow), f.asked()));
      n++;
    }
    if (n == 0 || collecting.isEmpty()) {
      return n;
    }
    List<Due> batch = new ArrayList<>(collecting);
    collecting.clear();
    List<FiringRequest> reqs = new ArrayList<>(batch.size());
    for (Due d : batch) {
      Timer t = d.timer();
      DueDecision dd = d.decision();
      reqs.add(new FiringRequest(t.id(), t.generation(), t.firings(), dd.fire(), dd.firedDueAt(), turnNow, dd.next(),
          dd.nominalAt(), t.callback()));
    }
    batchInFlight = true;
    batchDone = Promise.promise();
    record(batch, reqs, 0);
    return n;
  }

  private void collect(String id, long dueAt, Timer t) {
    if (!pending.tryHold(id)) {
      // Cannot happen (an armed timer is never held); keep it rather than lose it.
      LOG.log(System.Logger.Level.ERROR, "timer " + id + " was due while held; postponing it one tick");
      pending.refile(id, turnNow + opts.tickMs(), t);
      return;
    }
    if (topicPaused.test(t.topic())) {
      // held back unchanged: on the topic's resume it is armed again and its due time follows misfire
      pending.release(id);
      pending.park(t);
      return;
    }
    collecting.add(new Due(t, Schedule.onDue(t, turnNow, opts.misfireThresholdMs()), null));
  }

  private void record(List<Due> batch, List<FiringRequest> reqs, int attempt) {
    store.recordFirings(reqs).onComplete(ar -> {
      if (ar.succeeded() && ar.result().size() == reqs.size()) {
        settle(batch, ar.result());
        return;
      }
      failedBatches++;
      Throwable cause = ar.failed() ? ar.cause()
          : new IllegalStateException("store answered " + ar.result().size() + " results for " + reqs.size());
      if (attempt == 0 || attempt % 20 == 0) {
        LOG.log(System.Logger.Level.WARNING, "recording " + reqs.size() + " firings failed (attempt " + (attempt + 1)
            + "), retrying: " + cause);
      }
      if (stopped) {
        // Shutting down: the timers stay in the store and fire after the restart.
        Refusal r = Refusal.ofStoreFailure(cause, true);
        batch.forEach(d -> answer(d, r));
        endBatch();
        return;
      }
      vertx.setTimer(Backoff.delayMs(attempt), id -> record(batch, reqs, attempt + 1));
    });
  }

  // ------------------------------------------------------------------ settle → publish

  private void settle(List<Due> batch, List<FiringResult> results) {
    for (int i = 0; i < batch.size(); i++) {
      Due d = batch.get(i);
      FiringResult r = results.get(i);
      String id = d.timer().id();
      if (r.applied()) {
        Firing f = r.firing();
        if (f != null) {
          publish(f);
        }
        if (r.delivery() != null) {
          try {
            deliveries.accept(r.delivery());
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "taking delivery " + r.delivery().id() + " failed", e);
          }
        }
        Timer next = d.decision().next();
        if (next != null) {
          pending.arm(next);
        }
        pending.release(id);
        if (d.asked() != null) {
          Timer shown = next != null ? next : d.timer().fired(d.timer().nominalAt(), d.timer().nextDueAt());
          d.asked().complete(new WriteOutcome.FiredNow(f == null ? shown : shown.withPayload(f.payload())));
        }
      } else {
        reconcile(id, 0);
        answer(d, new Refusal.ChangedConcurrently(id));
      }
    }
    endBatch();
    wakeUp.turnSoon();
  }

  /** Answers whoever asked {@code d} to fire now, if anyone. */
  private static void answer(Due d, WriteOutcome o) {
    if (d.asked() != null) {
      d.asked().tryComplete(o);
    }
  }

  private void publish(Firing f) {
    published++;
    metrics.fired(f.firedAt() - f.dueAt());
    try {
      publisher.accept(f);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "publishing firing " + f.seq() + " failed", e);
    }
  }

  private void endBatch() {
    batchInFlight = false;
    batchDone.complete();
  }

  /** After a stale firing: memory and store disagree about {@code id} (held); adopt the store's state. */
  private void reconcile(String id, int attempt) {
    store.get(id).onComplete(ar -> {
      if (ar.failed()) {
        vertx.setTimer(Backoff.delayMs(attempt), t -> reconcile(id, attempt + 1));
        return;
      }
      if (ar.result() != null) {
        pending.arm(ar.result());
      }
      pending.release(id);
    });
  }
}
