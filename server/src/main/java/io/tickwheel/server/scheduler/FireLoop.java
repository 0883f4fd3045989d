package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.DueDecision;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.StoreException;
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
 * their next state, and recorded firings are published in seq order.
 *
 * <p><b>Pipelining.</b> Up to {@value #MAX_BATCHES_IN_FLIGHT} batches are in flight at once: the next turn advances
 * and decides while the store writes the previous batches, so the event loop and the store's writer work side by
 * side. Batches settle (re-arm, publish) strictly in the order they were sent, a later batch answered first waiting
 * for the earlier ones: the store applies one caller's calls in call order ({@link TimerStore}, "Order"), so that is
 * seq order. Should a store answer out of that order anyway (a Redis script retried after {@code NOSCRIPT}), the
 * batches settled together are published by seq. A timer is in at most one batch (it is held from hand-out to
 * settle), so its firings stay in order. If a turn hit the limit the next follows at once, as a new event-loop task,
 * so a burst drains over several turns without holding the event loop.
 *
 * <p><b>Failures.</b> A batch the store refused without applying it leaves the line and is sent again after
 * {@link Backoff} (behind the batches sent meanwhile, so its seqs come after theirs) until the store is back; its timers
 * stay held, the others stay armed: an accepted timer is never dropped. A batch whose failure
 * {@link StoreException#mayHaveApplied() may have been applied} (an answer lost after the write, a replica
 * acknowledgement that timed out) keeps its place in the line instead, so no batch behind it is published before it,
 * and is sent again there after the backoff. When that attempt finds firings stale, the earlier attempt recorded them:
 * they are read back from the log (after the last seq published, where nothing behind the batch has been published
 * yet) with their pending deliveries, and settle as if the first answer had arrived, so subscribers get every recorded
 * firing once and in seq order. A firing refused as stale otherwise (memory and store disagree, or not found in the
 * log) makes the loop re-read that id from the store and adopt its state ({@link ReadBack}).
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
  /** How long {@link #stop} waits for the batches in flight, s. */
  static final long STOP_WAIT_S = 2;
  /** How long a timer whose next state cannot be computed waits before it is looked at again, ms. */
  static final long UNDECIDABLE_RETRY_MS = 60_000;
  /** Most firing batches sent to the store and not settled yet (see "Pipelining"). */
  static final int MAX_BATCHES_IN_FLIGHT = 4;

  /**
   * A timer handed out by the wheel, or asked to fire now, and what it does now.
   *
   * @param asked who asked to fire it now ({@link #fireNow}), or {@code null} for a timer the wheel handed out
   */
  private record Due(Timer timer, DueDecision decision, Promise<WriteOutcome> asked) {}

  /** A held timer waiting for the next turn to fire out of its schedule. */
  private record FireNow(Timer timer, Promise<WriteOutcome> asked) {}

  /** One store call's worth of due timers, from send to settle. */
  private static final class Batch {
    final List<Due> dues;
    final List<FiringRequest> reqs;
    List<FiringResult> results;
    int attempt;
    /** An attempt failed after the store may have applied it: stale results may be firings already recorded. */
    boolean uncertain;

    Batch(List<Due> dues, List<FiringRequest> reqs) {
      this.dues = dues;
      this.reqs = reqs;
    }

    /** The seq of its first applied firing, or {@code Long.MAX_VALUE} (settle order when answers came out of order). */
    long firstSeq() {
      for (FiringResult r : results) {
        if (r.applied() && r.firing() != null) {
          return r.firing().seq();
        }
      }
      return Long.MAX_VALUE;
    }
  }

  private final Vertx vertx;
  private final Context owner;
  private final TimerStore store;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final SchedulerOptions opts;
  private final Metrics metrics;
  private final WakeUp wakeUp;
  private final ReadBack reconcile;
  private Consumer<Firing> publisher = f -> { };
  private Consumer<Delivery> deliveries = d -> { };
  private Predicate<String> topicPaused = topic -> false;
  private final ArrayDeque<FireNow> fireNows = new ArrayDeque<>();

  private boolean stopped;
  private final ArrayList<Due> collecting = new ArrayList<>();
  private long turnNow;
  private final ExpiryHandler<Timer> collector = this::collect;
  /** Batches sent and not answered or answered and waiting for earlier ones, in the order they were sent. */
  private final ArrayDeque<Batch> inFlight = new ArrayDeque<>();
  /** Batches that failed and wait for their backoff before being sent again. */
  private int retrying;
  /** Completed when no batch is in flight or retrying (created on demand). */
  private Promise<Void> idle;
  private long published;
  /** The highest seq published, or known recorded before this loop's batches ({@link #knownSeq}). */
  private long lastSeq;
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
    this.wakeUp = new WakeUp(owner, clock, pending::nextExpiryAtMs, this::turn);
    this.reconcile = new ReadBack(vertx, store, pending);
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

  /**
   * The store's last seq before this loop records anything (recovery): the lower bound from which firings recorded by
   * an attempt whose answer was lost are read back.
   */
  void knownSeq(long seq) {
    lastSeq = Math.max(lastSeq, seq);
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
    if (outstanding()) {
      return whenIdle().timeout(STOP_WAIT_S, TimeUnit.SECONDS).otherwiseEmpty();
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
    if (outstanding()) {
      return whenIdle().compose(v -> drain(sofar));
    }
    int n = advanceOnce();
    if (n == 0) {
      return Future.succeededFuture(sofar);
    }
    // every timer handed out may have been parked (its topic is paused): no batch then
    Future<Void> settled = outstanding() ? whenIdle() : Future.succeededFuture();
    return settled.compose(v -> {
      Promise<Integer> next = Promise.promise();
      owner.runOnContext(x -> drain(sofar + n).onComplete(next));
      return next.future();
    });
  }

  // ------------------------------------------------------------------ turns

  private void turn() {
    if (!wakeUp.running() || inFlight.size() >= MAX_BATCHES_IN_FLIGHT) {
      return;                  // the next answer calls for a turn
    }
    int n = advanceOnce();
    if (n == 0) {
      wakeUp.sleep();
    } else {
      wakeUp.turnSoon();       // more may be due (the limit was hit), or all were parked; an empty turn sleeps
    }
  }

  /** Whether a batch is in flight or waiting to be sent again. */
  private boolean outstanding() {
    return !inFlight.isEmpty() || retrying > 0;
  }

  /** Completes when no batch is in flight or retrying. */
  private Future<Void> whenIdle() {
    if (!outstanding()) {
      return Future.succeededFuture();
    }
    if (idle == null) {
      idle = Promise.promise();
    }
    return idle.future();
  }

  private void checkIdle() {
    if (idle != null && !outstanding()) {
      Promise<Void> p = idle;
      idle = null;
      p.complete();
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
    send(new Batch(batch, reqs));
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
    DueDecision decision;
    try {
      decision = Schedule.onDue(t, turnNow, opts.misfireThresholdMs());
    } catch (RuntimeException e) {
      // A stored calendar that no longer parses (ZonedCron.stored): keep the timer, look again in a minute.
      LOG.log(System.Logger.Level.ERROR, "timer " + id + " cannot be decided; looking again in "
          + UNDECIDABLE_RETRY_MS + " ms: " + e.getMessage());
      pending.release(id);
      pending.refile(id, turnNow + UNDECIDABLE_RETRY_MS, t);
      return;
    }
    collecting.add(new Due(t, decision, null));
  }

  /** Sends {@code b} to the store, at the end of the line. */
  private void send(Batch b) {
    inFlight.add(b);            // before the call: a store may answer at once
    store.recordFirings(b.reqs).onComplete(ar -> answered(b, ar));
  }

  private void answered(Batch b, io.vertx.core.AsyncResult<List<FiringResult>> ar) {
    if (ar.succeeded() && ar.result().size() == b.reqs.size()) {
      if (b.uncertain && anyStaleFiring(b, ar.result())) {
        readBack(b, ar.result());
        return;
      }
      b.results = ar.result();
      settleReady();
      return;
    }
    failedBatches++;
    Throwable cause = ar.failed() ? ar.cause()
        : new IllegalStateException("store answered " + ar.result().size() + " results for " + b.reqs.size());
    if (b.attempt == 0 || b.attempt % 20 == 0) {
      LOG.log(System.Logger.Level.WARNING, "recording " + b.reqs.size() + " firings failed (attempt "
          + (b.attempt + 1) + "), retrying: " + cause);
    }
    if (!stopped && (b.uncertain || cause instanceof StoreException e && e.mayHaveApplied())) {
      // it may be recorded: keep its place in the line (nothing behind it settles first) and send it again there
      b.uncertain = true;
      vertx.setTimer(Backoff.delayMs(b.attempt), id -> {
        b.attempt++;
        store.recordFirings(b.reqs).onComplete(r -> answered(b, r));
      });
      return;
    }
    inFlight.remove(b);
    if (stopped) {
      // Shutting down: the timers stay in the store and fire after the restart.
      Refusal r = Refusal.ofStoreFailure(cause, true);
      b.dues.forEach(d -> answer(d, r));
      settleReady();            // the batches behind it need not wait for it
      return;
    }
    retrying++;
    settleReady();
    vertx.setTimer(Backoff.delayMs(b.attempt), id -> {
      retrying--;
      b.attempt++;
      send(b);
    });
  }

  /** Whether a request of {@code b} that fires was refused as stale. */
  private static boolean anyStaleFiring(Batch b, List<FiringResult> results) {
    for (int i = 0; i < results.size(); i++) {
      if (!results.get(i).applied() && b.reqs.get(i).fire()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code b}'s attempt after a maybe-applied failure found firings stale: an earlier attempt recorded them. Reads the
   * log after the last seq published (nothing behind {@code b} has been published, so its firings are there, among
   * the entries of the batches in the line, which bound the read) and takes each stale firing
   * found there, matched by id, firing number and due time, with its pending delivery; then settles. A stale request
   * not found there stays stale (the loop adopts the store's state). A read that fails is tried again after
   * {@link Backoff}; the batch keeps its place meanwhile.
   */
  private void readBack(Batch b, List<FiringResult> results) {
    int limit = 0;
    for (Batch x : inFlight) {
      limit += x.reqs.size();   // every firing recorded after lastSeq is one of the batches in the line
    }
    store.readFirings(lastSeq, limit).compose(log -> {
      java.util.HashMap<String, Firing> byKey = new java.util.HashMap<>();
      for (Firing f : log) {
        byKey.put(f.id() + '\n' + f.firing() + '\n' + f.dueAt(), f);
      }
      List<FiringResult> fixed = new ArrayList<>(results);
      List<Future<Void>> deliveries = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        FiringRequest r = b.reqs.get(i);
        if (results.get(i).applied() || !r.fire()) {
          continue;
        }
        Firing f = byKey.get(r.id() + '\n' + (r.firingsBefore() + 1) + '\n' + r.dueAt());
        if (f == null) {
          continue;
        }
        int at = i;
        fixed.set(at, FiringResult.fired(f));
        if (r.callback() != null) {
          deliveries.add(store.getDelivery(f.seq()).map(d -> {
            fixed.set(at, FiringResult.fired(f, d));
            return (Void) null;
          }));
        }
      }
      return Future.all(deliveries).map(fixed);
    }).onComplete(ar -> {
      if (ar.failed() && stopped) {
        b.results = results;      // shutting down: settled as the store answered (the log keeps the firings)
        settleReady();
        return;
      }
      if (ar.failed()) {
        LOG.log(System.Logger.Level.WARNING, "reading back " + b.reqs.size() + " firings failed, retrying: "
            + ar.cause());
        vertx.setTimer(Backoff.delayMs(b.attempt), id -> readBack(b, results));
        return;
      }
      b.results = ar.result();
      settleReady();
    });
  }

  // ------------------------------------------------------------------ settle → publish

  /** Settles the answered batches at the head of the line, in seq order; then calls for a turn. */
  private void settleReady() {
    if (inFlight.isEmpty() || inFlight.peek().results == null) {
      checkIdle();
      return;
    }
    Batch first = inFlight.poll();
    if (inFlight.isEmpty() || inFlight.peek().results == null) {
      settle(first.dues, first.results);
    } else {
      ArrayList<Batch> ready = new ArrayList<>();
      ready.add(first);
      while (!inFlight.isEmpty() && inFlight.peek().results != null) {
        ready.add(inFlight.poll());
      }
      ready.sort(java.util.Comparator.comparingLong(Batch::firstSeq));
      for (Batch b : ready) {
        settle(b.dues, b.results);
      }
    }
    checkIdle();
    wakeUp.turnSoon();
  }

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
          pending.rearm(next);
        }
        pending.release(id);
        if (d.asked() != null) {
          Timer shown = next != null ? next : d.timer().fired(d.timer().nominalAt(), d.timer().nextDueAt());
          d.asked().complete(new WriteOutcome.FiredNow(f == null ? shown : shown.withPayload(f.payload())));
        }
      } else {
        reconcile.adopt(id);      // memory and store disagree about held id: adopt the store's state
        answer(d, new Refusal.ChangedConcurrently(id));
      }
    }
  }

  /** Answers whoever asked {@code d} to fire now, if anyone. */
  private static void answer(Due d, WriteOutcome o) {
    if (d.asked() != null) {
      d.asked().tryComplete(o);
    }
  }

  private void publish(Firing f) {
    published++;
    lastSeq = Math.max(lastSeq, f.seq());
    metrics.fired(f.firedAt() - f.dueAt());
    try {
      publisher.accept(f);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "publishing firing " + f.seq() + " failed", e);
    }
  }
}
