package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.DueDecision;
import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.core.wheel.TimerWheel;
import io.tickwheel.server.ApiException;
import io.tickwheel.server.metrics.Metrics;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The heart of the server: the timing wheel of pending timers, their write path, the fire path and recovery.
 * No HTTP here.
 *
 * <h2>Threading</h2>
 * <b>Owner context only.</b> Every method must be called on the {@code owner} context (the verticle's event
 * loop); futures complete there. Nothing blocks: the store is asynchronous.
 *
 * <h2>State</h2>
 * The wheel holds one payload-less copy ({@link Timer#withoutPayload()}) of every stored timer, keyed by id. With a
 * store that keeps its timers on the heap ({@link TimerStore#keepsTimersOnHeap()}) it holds the timer with its
 * payload instead, the very object the store keeps after a create or a touch ({@link Timer#withPayload} of the same
 * payload is the timer itself). The wheel's copy is never the source of a payload: firings and reads take it from
 * the store.
 * While an operation works on an id (a write from the API, or the recording of its firing) the id is
 * <em>held</em> ({@link IdLocks}) and its timer is out of the wheel; operations on one id run one after the other.
 * So a timer whose firing is being recorded cannot be fired again, and a DELETE/PUT/touch that arrives meanwhile
 * runs after the firing is settled: it never fires twice for one due time, and a cancelled timer never fires
 * afterwards. The store's generation check backs this up when memory and store disagree (after a write that
 * failed but was applied): such a firing is refused as stale and the id is re-read from the store.
 *
 * <h2>Write path</h2>
 * Validated definition → {@link Schedule#accept} → durable store write → into the wheel → answer. A 2xx means
 * durable. Generation: 1 for a new id, previous + 1 for a replace; touch bumps it and uses
 * {@link TimerStore#update}. A create holds its id only while its store write is in flight; a write the store
 * completes at once (the memory store) needs no hold, since nothing else runs on the owner meanwhile.
 *
 * <h2>Fire path</h2>
 * Each turn advances the wheel to the clock's now, handing out at most {@code turnLimit} due timers; each gets a
 * {@link Schedule#onDue} decision; one {@link TimerStore#recordFirings} call records the whole turn (group
 * commit); then applied timers are re-armed with their next state and recorded firings are published in seq
 * order. One batch is in flight at a time (which keeps publication in seq order); if the limit was hit the next
 * turn follows at once, so a burst drains over several turns without holding the event loop. A failed batch is
 * retried with backoff (50 ms doubling to 5 s) until the store is back; its timers stay held, the others stay in
 * the wheel: an accepted timer is never dropped.
 *
 * <h2>Driving</h2>
 * A one-shot Vert.x timer set to {@link TimerWheel#nextExpiryAtMs()} (capped at 1 s), moved earlier when an
 * earlier timer is armed: an idle server does not wake up, and a timer is handed out at the start of its tick.
 *
 * <h2>Time</h2>
 * Read only through the injected clock (epoch ms), so tests drive it with a manual clock and {@link #drain()}.
 */
public final class Scheduler {

  private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());

  /**
   * @param tickMs             wheel tick, ms
   * @param maxPending         most pending timers; creates beyond answer 429
   * @param misfireThresholdMs lateness beyond which a fixed-rate due time is missed (see {@link Schedule#onDue})
   * @param turnLimit          most timers handed out (and recorded in one store call) per turn
   * @param retention          firing-log retention
   * @param trimIntervalMs     how often the firing log is trimmed
   * @param recoveryBatch      timers per batch when loading the store at start
   * @param lockTimeoutMs      how long a request waits for a busy id before 503
   * @param drive              whether the scheduler drives itself with Vert.x timers ({@code false} in unit tests,
   *                           which call {@link #drain()})
   */
  public record Options(long tickMs, long maxPending, long misfireThresholdMs, int turnLimit, Retention retention,
      long trimIntervalMs, int recoveryBatch, long lockTimeoutMs, boolean drive) {

    /** Defaults for a tick: 10M pending, 1 s misfire threshold, 10,000 per turn, trim every 10 s. */
    public static Options defaults(long tickMs) {
      return new Options(tickMs, 10_000_000, Schedule.DEFAULT_MISFIRE_THRESHOLD_MS, 10_000, Retention.defaults(),
          10_000, 10_000, 10_000, true);
    }

    public Options withMaxPending(long m) {
      return new Options(tickMs, m, misfireThresholdMs, turnLimit, retention, trimIntervalMs, recoveryBatch,
          lockTimeoutMs, drive);
    }

    public Options withDrive(boolean d) {
      return new Options(tickMs, maxPending, misfireThresholdMs, turnLimit, retention, trimIntervalMs, recoveryBatch,
          lockTimeoutMs, d);
    }

    public Options withTurnLimit(int l) {
      return new Options(tickMs, maxPending, misfireThresholdMs, l, retention, trimIntervalMs, recoveryBatch,
          lockTimeoutMs, drive);
    }

    public Options withMisfireThresholdMs(long m) {
      return new Options(tickMs, maxPending, m, turnLimit, retention, trimIntervalMs, recoveryBatch,
          lockTimeoutMs, drive);
    }

    public Options withRetention(Retention r, long intervalMs) {
      return new Options(tickMs, maxPending, misfireThresholdMs, turnLimit, r, intervalMs, recoveryBatch,
          lockTimeoutMs, drive);
    }
  }

  /** The outcome of {@link #upsert}: the stored timer (with payload) and whether it was created. */
  public record Upsert(Timer timer, boolean created) {}

  /** A timer handed out by the wheel and what it does now. */
  private record Due(Timer timer, DueDecision decision) {}

  private final Vertx vertx;
  private final Context owner;
  private final TimerStore store;
  /** {@link TimerStore#keepsTimersOnHeap()}: the wheel keeps the stored objects rather than payload-less copies. */
  private final boolean heapStore;
  private final LongSupplier clock;
  private final Options opts;
  private final Metrics metrics;
  private final TimerWheel<Timer> wheel;
  private final IdLocks locks;
  private Consumer<Firing> publisher = f -> { };

  private volatile boolean ready;
  private boolean stopped;

  private final ArrayList<Due> collecting = new ArrayList<>();
  private long turnNow;
  private final ExpiryHandler<Timer> collector = this::collect;
  private boolean batchInFlight;
  private Promise<Void> batchDone;
  private boolean turnQueued;
  private long wakeTimerId = -1;
  private long wakeAt = TimerWheel.NO_DEADLINE;
  private long trimTimerId = -1;
  private boolean trimming;
  private long published;
  private long failedBatches;

  /**
   * @param owner   the context that owns this scheduler (all calls on it)
   * @param store   where timers and firings are kept
   * @param clock   the current time, epoch ms
   * @param metrics where firings and lateness are counted
   */
  public Scheduler(Vertx vertx, Context owner, TimerStore store, LongSupplier clock, Options opts, Metrics metrics) {
    this.vertx = vertx;
    this.owner = owner;
    this.store = store;
    this.heapStore = store.keepsTimersOnHeap();
    this.clock = clock;
    this.opts = opts;
    this.metrics = metrics;
    this.wheel = new TimerWheel<>(opts.tickMs(), clock.getAsLong());
    this.locks = new IdLocks(vertx);
  }

  /** Where recorded firings go, in seq order, on the owner context (the firing hub's {@code publish}). */
  public void onFiring(Consumer<Firing> p) {
    this.publisher = p;
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * Loads every stored timer into the wheel (overdue ones fire on the first turns; fixed-rate ones apply their
   * misfire rule then), then starts driving and trimming. Until it completes, {@link #ready()} is false and the
   * write methods fail with 503.
   *
   * @return the number of timers loaded
   */
  public Future<Long> recover() {
    return store.loadAll(opts.recoveryBatch(), batch -> onOwner(() -> {
      for (Timer t : batch) {
        Timer lean = wheelCopy(t);
        wheel.schedule(lean.id(), lean.nextDueAt(), lean);
      }
    })).onSuccess(n -> {
      ready = true;
      if (opts.drive()) {
        trimTimerId = vertx.setPeriodic(opts.trimIntervalMs(), id -> trimNow());
        turnSoon();
      }
    });
  }

  /** Stops driving; waits (at most 2 s) for the firing batch in flight. The store is left open. */
  public Future<Void> stop() {
    stopped = true;
    if (wakeTimerId >= 0) {
      vertx.cancelTimer(wakeTimerId);
      wakeTimerId = -1;
    }
    if (trimTimerId >= 0) {
      vertx.cancelTimer(trimTimerId);
      trimTimerId = -1;
    }
    if (batchInFlight) {
      return batchDone.future().timeout(2, TimeUnit.SECONDS).otherwiseEmpty();
    }
    return Future.succeededFuture();
  }

  /** Whether recovery has finished. Any thread. */
  public boolean ready() {
    return ready;
  }

  // ------------------------------------------------------------------ reads

  /** Timers waiting to fire (in the wheel, or held by an operation or a firing in flight). */
  public int pending() {
    return wheel.size() + locks.size();
  }

  /** The wheel, for read-only views (owner context only). */
  public TimerWheel<Timer> wheel() {
    return wheel;
  }

  /** The current time by the injected clock, epoch ms. */
  public long now() {
    return clock.getAsLong();
  }

  public long tickMs() {
    return opts.tickMs();
  }

  /** Firings recorded and published since start. */
  public long publishedTotal() {
    return published;
  }

  /** Firing batches that failed and were retried since start. */
  public long failedBatches() {
    return failedBatches;
  }

  /** The store. */
  public TimerStore store() {
    return store;
  }

  // ------------------------------------------------------------------ write path

  /**
   * Creates a timer (POST). Its id is the spec's, or a generated one.
   *
   * @return the stored timer; fails with 409 if the id exists, 429 at {@code maxPending}, 503 while recovering or
   *     when the store is down
   */
  public Future<Timer> create(TimerSpec spec) {
    if (!ready) {
      return Future.failedFuture(recovering());
    }
    String id = spec.id() != null ? spec.id() : freshId();
    if (exists(id)) {
      return Future.failedFuture(ApiException.alreadyExists(id));
    }
    if (pending() >= opts.maxPending()) {
      return Future.failedFuture(ApiException.exhausted(opts.maxPending()));
    }
    Timer t = Schedule.accept(spec.withId(id), now(), 1);
    // createAll, not put: the id is in neither the wheel nor a lock, so it is not stored either (every stored
    // timer is armed or held), and the store need not read an old version
    Future<Void> put = store.createAll(List.of(t));
    if (put.isComplete()) {
      // Answered at once (the memory store): nothing ran on this loop meanwhile, so there is nothing to hold off.
      return created(put, t);
    }
    // Held while the write is in flight: a concurrent create of this id gets 409, an update/delete waits.
    locks.tryLock(id);
    return put.transform(ar -> {
      Future<Timer> out = created(ar, t);
      locks.unlock(id);
      return out;
    });
  }

  /** Settles a create's store write: arms {@code t} if it succeeded. */
  private Future<Timer> created(AsyncResult<Void> write, Timer t) {
    if (write.failed()) {
      return Future.failedFuture(storeError(write.cause()));
    }
    arm(t);
    return Future.succeededFuture(t);
  }

  /**
   * Creates many timers (the batch call) in one atomic store write. {@code null} entries are skipped (the caller
   * answers them); each other entry gets its stored {@link Timer}, or an {@link ApiException} (409 for an existing
   * id or one repeated in the batch, 429 beyond {@code maxPending}, the store's error for all if the write fails).
   *
   * @return one element per spec, in order ({@code null} for the skipped ones)
   */
  public Future<List<Object>> createAll(List<TimerSpec> specs) {
    if (!ready) {
      return Future.failedFuture(recovering());
    }
    long now = now();
    long room = opts.maxPending() - pending();
    List<Object> out = new ArrayList<>(specs.size());
    List<Timer> accepted = new ArrayList<>();
    for (TimerSpec spec : specs) {
      if (spec == null) {
        out.add(null);
        continue;
      }
      String id = spec.id() != null ? spec.id() : freshId();
      if (exists(id)) {
        out.add(ApiException.alreadyExists(id));
      } else if (room <= 0) {
        out.add(ApiException.exhausted(opts.maxPending()));
      } else {
        room--;
        locks.tryLock(id);
        Timer t = Schedule.accept(spec.withId(id), now, 1);
        accepted.add(t);
        out.add(t);
      }
    }
    if (accepted.isEmpty()) {
      return Future.succeededFuture(out);
    }
    return store.createAll(accepted).transform(ar -> {
      for (Timer t : accepted) {
        if (ar.succeeded()) {
          arm(t);
        }
        locks.unlock(t.id());
      }
      if (ar.failed()) {
        ApiException e = storeError(ar.cause());
        for (int i = 0; i < out.size(); i++) {
          if (out.get(i) instanceof Timer) {
            out.set(i, e);
          }
        }
      }
      return Future.succeededFuture(out);
    });
  }

  /**
   * Creates or replaces the timer {@code spec.id()} (PUT). A replace takes the next generation, restarts the
   * firing count and replaces the pending due time (the old one never fires).
   */
  public Future<Upsert> upsert(TimerSpec spec) {
    if (!ready) {
      return Future.failedFuture(recovering());
    }
    String id = spec.id();
    return locks.lock(id, opts.lockTimeoutMs()).compose(v -> {
      Timer old = wheel.get(id);
      if (old == null && pending() > opts.maxPending()) {   // pending() counts this id's hold
        locks.unlock(id);
        return Future.failedFuture(ApiException.exhausted(opts.maxPending()));
      }
      if (old != null) {
        wheel.cancel(id);
      }
      Timer t = Schedule.accept(spec, now(), old == null ? 1 : old.generation() + 1);
      return store.put(t).transform(ar -> {
        if (ar.succeeded()) {
          arm(t);
        } else if (old != null) {
          arm(old);
        }
        locks.unlock(id);
        return ar.succeeded() ? Future.succeededFuture(new Upsert(t, old == null))
            : Future.failedFuture(storeError(ar.cause()));
      });
    });
  }

  /**
   * Cancels a timer (DELETE): it never fires afterwards.
   *
   * @return whether it existed
   */
  public Future<Boolean> cancel(String id) {
    if (!ready) {
      return Future.failedFuture(recovering());
    }
    if (!exists(id)) {
      return Future.succeededFuture(false);
    }
    return locks.lock(id, opts.lockTimeoutMs()).compose(v -> {
      Timer old = wheel.get(id);
      if (old == null) {          // it ended (fired its last) while we waited
        locks.unlock(id);
        return Future.succeededFuture(false);
      }
      wheel.cancel(id);
      return store.remove(id).transform(ar -> {
        if (ar.failed()) {
          arm(old);
        }
        locks.unlock(id);
        return ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(storeError(ar.cause()));
      });
    });
  }

  /**
   * Restarts a timer's countdown (touch): next due = now + {@code delayOverride}, or its own delay (once) or period
   * (periodic). The pending due time is replaced; a touch that keeps coming before it is due keeps it from firing.
   *
   * @return the stored timer with its payload, or {@code null} if there is none
   */
  public Future<Timer> touch(String id, Long delayOverride) {
    if (!ready) {
      return Future.failedFuture(recovering());
    }
    if (!exists(id)) {
      return Future.succeededFuture(null);
    }
    return locks.lock(id, opts.lockTimeoutMs()).compose(v -> {
      Timer old = wheel.get(id);
      if (old == null) {
        locks.unlock(id);
        return Future.succeededFuture(null);
      }
      wheel.cancel(id);
      Timer next = Schedule.touch(old, now(), delayOverride);
      return store.update(next, old.generation()).transform(ar -> {
        if (ar.failed()) {
          arm(old);
          locks.unlock(id);
          return Future.failedFuture(storeError(ar.cause()));
        }
        Timer touched = ar.result(); // the stored timer, payload included: no second round trip
        if (touched != null) {
          arm(touched);
          locks.unlock(id);
          return Future.succeededFuture(touched);
        }
        // The store holds another state than memory (a write failed but was applied): adopt it, touch that once.
        return store.get(id).transform(g -> {
          if (g.failed()) {
            arm(old);
            locks.unlock(id);
            return Future.failedFuture(storeError(g.cause()));
          }
          Timer stored = g.result();
          if (stored == null) {
            locks.unlock(id);
            return Future.succeededFuture(null);
          }
          Timer retry = Schedule.touch(stored, now(), delayOverride);
          return store.update(retry, stored.generation()).transform(u -> {
            Timer retried = u.succeeded() ? u.result() : null;
            arm(retried != null ? retried : stored);
            locks.unlock(id);
            if (retried != null) {
              return Future.succeededFuture(retried);
            }
            return Future.failedFuture(u.failed() ? storeError(u.cause())
                : ApiException.unavailable("timer \"" + id + "\" changed concurrently; retry"));
          });
        });
      });
    });
  }

  /** Trims the firing log to the retention, now. Skipped (0) while a trim is running. */
  public Future<Long> trimNow() {
    if (trimming) {
      return Future.succeededFuture(0L);
    }
    trimming = true;
    return store.trimFirings(opts.retention(), now()).andThen(ar -> {
      trimming = false;
      if (ar.failed()) {
        LOG.log(System.Logger.Level.WARNING, "trimming the firing log failed: " + ar.cause());
      }
    });
  }

  // ------------------------------------------------------------------ fire path

  /**
   * Runs turns until nothing is due at the clock's now and no firing batch is in flight (tests with a manual
   * clock; also usable to flush).
   *
   * @return how many timers were handed out
   */
  public Future<Integer> drain() {
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
    // like the driven turns: the next turn is a new event-loop task
    return batchDone.future().compose(v -> {
      Promise<Integer> next = Promise.promise();
      owner.runOnContext(x -> drain(sofar + n).onComplete(next));
      return next.future();
    });
  }

  private void turnSoon() {
    if (turnQueued || !opts.drive() || stopped) {
      return;
    }
    turnQueued = true;
    owner.runOnContext(v -> {
      turnQueued = false;
      turn();
    });
  }

  private void turn() {
    if (stopped || !ready || batchInFlight) {
      return;
    }
    if (advanceOnce() == 0) {
      armWakeup();
    }
  }

  /** Hands out up to {@code turnLimit} due timers and starts recording them; returns how many. */
  private int advanceOnce() {
    turnNow = now();
    int n = wheel.advance(turnNow, collector, opts.turnLimit());
    if (n == 0 || collecting.isEmpty()) {
      return n;
    }
    List<Due> batch = new ArrayList<>(collecting);
    collecting.clear();
    List<FiringRequest> reqs = new ArrayList<>(batch.size());
    for (Due d : batch) {
      Timer t = d.timer();
      DueDecision dd = d.decision();
      reqs.add(new FiringRequest(t.id(), t.generation(), t.firings(), dd.fire(), dd.firedDueAt(), turnNow, dd.next()));
    }
    batchInFlight = true;
    batchDone = Promise.promise();
    submit(batch, reqs, 0);
    return n;
  }

  private void collect(String id, long dueAt, Timer t) {
    if (!locks.tryLock(id)) {
      // Cannot happen (a timer in the wheel is never held); keep it rather than lose it.
      LOG.log(System.Logger.Level.ERROR, "timer " + id + " was due while held; postponing it one tick");
      wheel.schedule(id, turnNow + opts.tickMs(), t);
      return;
    }
    collecting.add(new Due(t, Schedule.onDue(t, turnNow, opts.misfireThresholdMs())));
  }

  private void submit(List<Due> batch, List<FiringRequest> reqs, int attempt) {
    store.recordFirings(reqs).onComplete(ar -> {
      if (ar.succeeded() && ar.result().size() == reqs.size()) {
        settle(batch, ar.result());
        return;
      }
      failedBatches++;
      Throwable cause = ar.failed() ? ar.cause()
          : new IllegalStateException("store answered " + ar.result().size() + " results for " + reqs.size());
      if (attempt == 0 || attempt % 20 == 0) {
        LOG.log(System.Logger.Level.WARNING, "recording " + reqs.size() + " firings failed (attempt " + (attempt + 1) + "), retrying: " + cause);
      }
      if (stopped) {
        // Shutting down: the timers stay in the store and fire after the restart.
        batchInFlight = false;
        batchDone.complete();
        return;
      }
      long delay = Math.min(5000, 50L << Math.min(attempt, 7));
      vertx.setTimer(delay, id -> submit(batch, reqs, attempt + 1));
    });
  }

  private void settle(List<Due> batch, List<FiringResult> results) {
    for (int i = 0; i < batch.size(); i++) {
      Due d = batch.get(i);
      FiringResult r = results.get(i);
      String id = d.timer().id();
      if (r.applied()) {
        Firing f = r.firing();
        if (f != null) {
          published++;
          metrics.fired(f.firedAt() - f.dueAt());
          try {
            publisher.accept(f);
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "publishing firing " + f.seq() + " failed", e);
          }
        }
        if (d.decision().next() != null) {
          arm(d.decision().next());
        }
        locks.unlock(id);
      } else {
        reconcile(id, 0);
      }
    }
    batchInFlight = false;
    batchDone.complete();
    turnSoon();
  }

  /** After a stale firing: memory and store disagree about {@code id} (held); adopt the store's state. */
  private void reconcile(String id, int attempt) {
    store.get(id).onComplete(ar -> {
      if (ar.failed()) {
        vertx.setTimer(Math.min(5000, 50L << Math.min(attempt, 7)), t -> reconcile(id, attempt + 1));
        return;
      }
      if (ar.result() != null) {
        arm(ar.result());
      }
      locks.unlock(id);
    });
  }

  /** Puts a timer's lean copy in the wheel and wakes up earlier if it is due before the armed wake-up. */
  private void arm(Timer t) {
    Timer lean = wheelCopy(t);
    wheel.schedule(lean.id(), lean.nextDueAt(), lean);
    if (lean.nextDueAt() < wakeAt && opts.drive() && ready) {
      if (lean.nextDueAt() <= now()) {
        turnSoon();
      } else {
        armWakeup();
      }
    }
  }

  /**
   * What the wheel keeps of a stored timer: the payload-less copy, or the timer itself when the store keeps that very
   * object on the heap anyway ({@link TimerStore#keepsTimersOnHeap()}, the memory store).
   */
  private Timer wheelCopy(Timer t) {
    return heapStore ? t : t.withoutPayload();
  }

  private void armWakeup() {
    if (!opts.drive() || stopped) {
      return;
    }
    long next = wheel.nextExpiryAtMs();
    if (next == TimerWheel.NO_DEADLINE) {
      return;
    }
    long now = now();
    long delay = Math.max(1, Math.min(next - now, 1000));
    long target = now + delay;
    if (wakeTimerId >= 0) {
      if (wakeAt <= target) {
        return;
      }
      vertx.cancelTimer(wakeTimerId);
    }
    wakeAt = target;
    wakeTimerId = vertx.setTimer(delay, id -> {
      wakeTimerId = -1;
      wakeAt = TimerWheel.NO_DEADLINE;
      turn();
    });
  }

  // ------------------------------------------------------------------ helpers

  private boolean exists(String id) {
    return locks.isHeld(id) || wheel.contains(id);
  }

  private String freshId() {
    String id = Ids.random();
    while (exists(id)) {
      id = Ids.random();
    }
    return id;
  }

  private Future<Void> onOwner(Runnable r) {
    if (Vertx.currentContext() == owner) {
      r.run();
      return Future.succeededFuture();
    }
    Promise<Void> p = Promise.promise();
    owner.runOnContext(v -> {
      r.run();
      p.complete();
    });
    return p.future();
  }

  private static ApiException recovering() {
    return ApiException.unavailable("the server is recovering its timers; retry shortly");
  }

  /** The answer for a failed store call: 503 when the backend is unreachable, else 500. */
  static ApiException storeError(Throwable t) {
    if (t instanceof ApiException a) {
      return a;
    }
    if (t instanceof StoreUnavailableException) {
      return ApiException.unavailable("the store is unavailable: " + t.getMessage());
    }
    LOG.log(System.Logger.Level.ERROR, "store call failed", t);
    return ApiException.internal("the store failed: " + t.getMessage());
  }
}
