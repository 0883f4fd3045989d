package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.server.metrics.Metrics;
import io.tickwheel.server.scheduler.Refusal.Busy;
import io.tickwheel.server.scheduler.Refusal.CapacityExceeded;
import io.tickwheel.server.scheduler.Refusal.Conflict;
import io.tickwheel.server.scheduler.Refusal.NotFound;
import io.tickwheel.server.scheduler.Refusal.Recovering;
import io.tickwheel.server.scheduler.WriteOutcome.Created;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The heart of the server: the timers waiting to fire ({@link PendingTimers}), their write path, recovery, and the
 * {@link FireLoop} that fires them. No HTTP here: every call answers a domain outcome ({@link WriteOutcome},
 * {@link ReadOutcome}); a failed future means a bug.
 *
 * <h2>Threading</h2>
 * <b>Owner context only.</b> Every method must be called on the {@code owner} context (the verticle's event
 * loop); futures complete there. Nothing blocks: the store is asynchronous.
 *
 * <h2>One operation per id</h2>
 * While an operation works on an id (a write from the API, or the recording of its firing) the id is <em>held</em>
 * and its timer is out of the wheel; operations on one id run one after the other. So a timer whose firing is being
 * recorded cannot be fired again, and a DELETE/PUT/touch that arrives meanwhile runs after the firing is settled:
 * it never fires twice for one due time, and a cancelled timer never fires afterwards. A write that waits longer
 * than {@code lockTimeoutMs} answers {@link Busy}. The store's generation check backs this up when memory and store
 * disagree (after a write that failed but was applied): such a firing is refused as stale and the id is re-read.
 *
 * <h2>Write path</h2>
 * Validated definition → {@link Schedule#accept} → durable store write → armed → answer: a success means durable.
 * Generation: 1 for a new id, previous + 1 for a replace; touch bumps it and uses {@link TimerStore#update}. A create
 * holds its id only while its store write is in flight; a write the store completes at once (the memory store)
 * needs no hold, since nothing else runs on the owner meanwhile. Until {@link #recover} completes, writes answer
 * {@link Recovering}.
 *
 * <h2>Pauses and fire-now</h2>
 * A paused timer is out of the wheel ({@link PauseWrite}); a paused topic's due timers are held back by the fire loop
 * and armed again on its resume ({@link TopicPauses}); fire-now joins the fire loop's next batch
 * ({@link FireLoop#fireNow}). All of them stay pending.
 *
 * <h2>Time</h2>
 * Read only through the injected clock (epoch ms), so tests drive it with a manual clock and {@link #drain()}.
 */
public final class Scheduler {

  private final Context owner;
  private final TimerStore store;
  private final LongSupplier clock;
  private final SchedulerOptions opts;
  private final boolean drive;
  private final PendingTimers pending;
  private final FireLoop fireLoop;
  private final WritePath writes;
  private final RestoreWrite restores;
  private final TouchWrite touches;
  private final TurnCoalescer coalescer;
  private final Pipeline pipeline;
  private final PauseWrite pauses;
  private final TopicPauses topics;
  private final FiringLogTrim trim;
  /** Moves the window of the two tiers; {@code null} when every pending timer is in memory. */
  private final WindowLoader window;

  private volatile boolean ready;

  /**
   * @param owner   the context that owns this scheduler (all calls on it)
   * @param store   where timers and firings are kept
   * @param clock   the current time, epoch ms
   * @param metrics where firings and lateness are counted
   */
  public Scheduler(Vertx vertx, Context owner, TimerStore store, LongSupplier clock, SchedulerOptions opts,
      Metrics metrics) {
    this(vertx, owner, store, clock, opts, metrics, true);
  }

  /**
   * @param drive whether the scheduler drives itself with Vert.x timers after recovery; {@code false} in unit tests,
   *              which turn it with {@link #drain()}
   */
  Scheduler(Vertx vertx, Context owner, TimerStore store, LongSupplier clock, SchedulerOptions opts, Metrics metrics,
      boolean drive) {
    this.owner = owner;
    this.store = store;
    this.clock = clock;
    this.opts = opts;
    this.drive = drive;
    boolean windowed = opts.windowMs() > 0 && store instanceof io.tickwheel.core.store.DueIndex d
        && d.dueIndexAvailable() && !store.keepsTimersOnHeap();
    this.pending = new PendingTimers(vertx, opts.tickMs(), clock.getAsLong(), store.keepsTimersOnHeap(),
        windowed ? store : null);
    this.window = windowed ? new WindowLoader(vertx, owner, (io.tickwheel.core.store.DueIndex) store, pending, clock,
        opts.windowMs()) : null;
    this.fireLoop = new FireLoop(vertx, owner, store, pending, clock, opts, metrics);
    this.writes = new WritePath(vertx, store, pending, clock, opts);
    this.restores = new RestoreWrite(vertx, store, pending, opts);
    this.touches = new TouchWrite(vertx, store, pending, clock, opts.lockTimeoutMs());
    this.coalescer = new TurnCoalescer(store, owner, Pipeline.MAX_COALESCED);
    this.pipeline = new Pipeline(this, new WritePath(vertx, coalescer, pending, clock, opts),
        new TouchWrite(vertx, coalescer, pending, clock, opts.lockTimeoutMs()));
    this.pauses = new PauseWrite(vertx, store, pending, clock, opts.lockTimeoutMs());
    this.topics = new TopicPauses(owner, store, pending, windowed ? (io.tickwheel.core.store.DueIndex) store : null);
    fireLoop.topicPaused(topics::isPaused);
    this.trim = new FiringLogTrim(vertx, store, opts.retention(), clock);
  }

  /** Where recorded firings go, in seq order, on the owner context (the firing hub's {@code publish}). */
  public void onFiring(Consumer<Firing> p) {
    fireLoop.onFiring(p);
  }

  /**
   * Where the pending callback deliveries recorded with firings go (the store created each in its firing's write),
   * on the owner context, right after the firing was published.
   */
  public void onDelivery(Consumer<io.tickwheel.core.delivery.Delivery> c) {
    fireLoop.onDelivery(c);
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * Loads the paused topics, then the stored timers into the wheel: every one, or, with a window (see
   * {@link SchedulerOptions#windowMs()}), those due within it, the others counted and left in the store (overdue ones
   * fire on the first turns; fixed-rate and cron ones apply their misfire rule then; paused timers go to the paused
   * set; due timers of paused topics are held back when they come due), then starts firing and trimming. Until it
   * completes, {@link #ready()} is false and writes answer {@link Recovering}.
   *
   * @return the number of timers loaded into memory
   */
  public Future<Long> recover() {
    return onOwner(() -> { }).compose(v -> topics.recover())
        .compose(v -> window != null ? window.recover()
            : store.loadAll(opts.recoveryBatch(), batch -> onOwner(() -> batch.forEach(pending::load))))
        .compose(n -> store.lastSeq().compose(seq -> onOwner(() -> fireLoop.knownSeq(seq))).map(n))
        .onSuccess(n -> {
          ready = true;
          if (drive) {
            trim.start(opts.trimIntervalMs());
            fireLoop.start();
            if (window != null) {
              window.start();
            }
          }
        });
  }

  /** Stops firing and trimming; waits (at most 2 s) for the firing batch in flight. The store is left open. */
  public Future<Void> stop() {
    trim.stop();
    if (window != null) {
      window.stop();
    }
    return fireLoop.stop();
  }

  /** Whether recovery has finished. Any thread. */
  public boolean ready() {
    return ready;
  }

  /**
   * Runs fire turns until nothing is due at the clock's now and no firing batch is in flight (tests with a manual
   * clock; also usable to flush).
   *
   * @return how many timers were handed out
   */
  public Future<Integer> drain() {
    return window == null ? fireLoop.drain() : window.catchUp().compose(v -> fireLoop.drain());
  }

  /** Trims the firing log to the retention, now. Skipped (0) while a trim is running. */
  public Future<Long> trimNow() {
    return trim.trimNow();
  }

  // ------------------------------------------------------------------ reads

  /**
   * Timers waiting to fire: armed, paused, held back by a topic pause, held by an operation or a firing in flight, or
   * far (in the store beyond the window). At most {@code Integer.MAX_VALUE}.
   */
  public int pending() {
    return (int) Math.min(Integer.MAX_VALUE, pending.size());
  }

  /** Of {@link #pending()}, the far ones: in the store, due beyond the window (0 without one). */
  public long farTimers() {
    return pending.farCount();
  }

  /** Timers due at or after this are far, epoch ms ({@code Long.MAX_VALUE}: no window). */
  public long windowBound() {
    return pending.bound();
  }

  /**
   * Paused timers (out of the wheel until resumed; counted in {@link #pending()}), both tiers: in memory and far. At
   * most {@code Integer.MAX_VALUE}.
   */
  public int pausedTimers() {
    return (int) Math.min(Integer.MAX_VALUE, pending.pausedCount() + pending.farPausedCount());
  }

  /** Paused topics. */
  public int pausedTopics() {
    return topics.pausedCount();
  }

  /**
   * Topics that have pending timers or are paused, by name, strictly after {@code after} (or from the start), at most
   * {@code limit} ({@code <= 10,000}), with their pending timers of both tiers: from memory without a window; with
   * one, from the store's per-topic counts (one read).
   *
   * @return {@link ReadOutcome.Topics}, or the store's failure
   */
  public Future<ReadOutcome> topics(String after, int limit) {
    return topics.list(after, limit).transform(ar -> Future.succeededFuture(ar.failed()
        ? Refusal.ofStoreFailure(ar.cause(), false) : new ReadOutcome.Topics(ar.result())));
  }

  /**
   * The state of {@code topic} now (pending 0 and not paused: this scheduler has nothing of it), counted as
   * {@link #topics}.
   *
   * @return {@link ReadOutcome.Topics} of that one topic, or the store's failure
   */
  public Future<ReadOutcome> topicInfo(String topic) {
    return topics.info(topic).transform(ar -> Future.succeededFuture(ar.failed()
        ? Refusal.ofStoreFailure(ar.cause(), false) : new ReadOutcome.Topics(List.of(ar.result()))));
  }

  /**
   * Applies the cluster's set of paused topics (read from the coordinator after a {@code "t"} broadcast, or
   * periodically): topics in {@code paused} are paused here, the others resumed (their held-back timers armed
   * again). Nothing is written: the set is already durable in the coordinator.
   */
  public void applyPausedTopics(java.util.Set<String> paused) {
    topics.apply(paused);
  }

  /** A copy of the wheel's shape, for the console. */
  public WheelSnapshot wheelSnapshot() {
    return pending.snapshot();
  }

  /** The armed copy of {@code id}, or {@code null} (tests: what the wheel keeps). */
  Timer armed(String id) {
    return pending.armed(id);
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
    return fireLoop.published();
  }

  /** Firing batches that failed and were retried since start. */
  public long failedBatches() {
    return fireLoop.failedBatches();
  }

  /** The store's name (e.g. {@code rocksdb}). */
  public String storeName() {
    return store.name();
  }

  /** The stored timer {@code id} with its payload: {@link ReadOutcome.Found}, {@link NotFound} or a store failure. */
  public Future<ReadOutcome> get(String id) {
    return store.get(id).transform(ar -> Future.succeededFuture(ar.failed() ? Refusal.ofStoreFailure(ar.cause(), false)
        : ar.result() == null ? new NotFound(id) : new ReadOutcome.Found(ar.result())));
  }

  /** A page of stored timers by {@code nextDueAt}, then id ({@link TimerStore#list}), or a store failure. */
  public Future<ReadOutcome> list(String topic, TimerCursor after, int limit) {
    return store.list(topic, after, limit).transform(ar -> Future.succeededFuture(ar.failed()
        ? Refusal.ofStoreFailure(ar.cause(), false) : new ReadOutcome.Listed(ar.result())));
  }

  // ------------------------------------------------------------------ writes

  /**
   * Creates a timer (POST). Its id is the spec's, or a generated one.
   *
   * @return {@link Created} with the stored timer, or {@link Conflict} if the id exists, {@link CapacityExceeded} at
   *     {@code maxPending}, {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> create(TimerSpec spec) {
    return ready ? writes.create(spec) : recovering();
  }

  /**
   * Creates many timers (the batch call) in one atomic store write.
   *
   * @return one outcome per spec, in order: {@link Created}, {@link Conflict} (an existing id, or one repeated in
   *     the batch), {@link CapacityExceeded} beyond {@code maxPending}, {@link Recovering}, or, for every one that
   *     would have been created, the store's failure
   */
  public Future<List<WriteOutcome>> createAll(List<TimerSpec> specs) {
    if (!ready) {
      List<WriteOutcome> all = new ArrayList<>(specs.size());
      specs.forEach(s -> all.add(new Recovering()));
      return Future.succeededFuture(all);
    }
    return writes.createAll(specs);
  }

  /**
   * Creates or replaces timers that come with their whole state (the import): each as given (due time, firing count,
   * creation time, pause kept; generation 1, or the replaced one's next), all in one atomic store write, then armed; a
   * due time already passed fires at once, a periodic timer following its {@code misfire}. A paused topic holds them
   * back as it holds every timer of it.
   *
   * @param timers distinct ids (else {@link IllegalArgumentException}), as {@code TimerImport} reads them
   * @return one outcome per timer, in order: {@link Created}, {@link WriteOutcome.Replaced}, {@link Busy},
   *     {@link CapacityExceeded} (a new id beyond {@code maxPending}), {@link Recovering}, or the store's failure
   */
  public Future<List<WriteOutcome>> restoreAll(List<io.tickwheel.core.model.Timer> timers) {
    if (!ready) {
      List<WriteOutcome> all = new ArrayList<>(timers.size());
      timers.forEach(s -> all.add(new Recovering()));
      return Future.succeededFuture(all);
    }
    return restores.restoreAll(timers);
  }

  /**
   * Creates or replaces the timer {@code spec.id()} (PUT). A replace takes the next generation, restarts the
   * firing count and replaces the pending due time (the old one never fires).
   *
   * @return {@link Created} or {@link WriteOutcome.Replaced}, or {@link CapacityExceeded} (a create at
   *     {@code maxPending}), {@link Busy}, {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> upsert(TimerSpec spec) {
    return ready ? writes.upsert(spec) : recovering();
  }

  /**
   * Cancels a timer (DELETE): it never fires afterwards.
   *
   * @return {@link WriteOutcome.Cancelled}, or {@link NotFound}, {@link Busy}, {@link Recovering}, or the store's
   *     failure
   */
  public Future<WriteOutcome> cancel(String id) {
    return ready ? writes.cancel(id) : recovering();
  }

  /**
   * Restarts a timer's countdown (touch): next due = now + {@code delayOverride}, or its own delay (once) or period
   * (periodic). The pending due time is replaced; a touch that keeps coming before it is due keeps it from firing.
   *
   * @param delayOverride ms, or {@code null}
   * @return {@link WriteOutcome.Touched} with the stored timer and its payload, or {@link NotFound}, {@link Busy},
   *     {@link Refusal.ChangedConcurrently}, {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> touch(String id, Long delayOverride) {
    return ready ? touches.touch(id, delayOverride) : recovering();
  }

  /**
   * Restarts the countdown of many timers (the batch touch) with one store write ({@link TimerStore#updateAll}), as
   * {@link #touch} does for one. Every distinct id is held first; the batch waits for the ids busy with another
   * operation (at most {@code lockTimeoutMs}; beyond it that id answers {@link Busy}), so the answer may take as long
   * as the slowest id. A repeated id is touched once: each occurrence gets that one outcome.
   *
   * @param ids           the ids, in request order (valid ids; repeats allowed)
   * @param delayOverride ms for every id, or {@code null} for each timer's own delay or period
   * @return one outcome per element of {@code ids}, in order: {@link WriteOutcome.Touched}, {@link NotFound},
   *     {@link Busy}, {@link Refusal.ChangedConcurrently}, {@link Recovering}, or the store's failure
   */
  public Future<List<WriteOutcome>> touchAll(List<String> ids, Long delayOverride) {
    if (!ready) {
      List<WriteOutcome> all = new ArrayList<>(ids.size());
      ids.forEach(s -> all.add(new Recovering()));
      return Future.succeededFuture(all);
    }
    return touches.touchAll(ids, delayOverride);
  }

  /**
   * The same writes as {@link #create}, {@link #upsert}, {@link #touch} and {@link #cancel}, group-committed: the
   * single-timer writes made through it in one event-loop turn, from any number of connections, reach the store as
   * one write per kind (see {@link Pipeline}). The edge's single writes use it (WebSocket commands, and the HTTP
   * calls {@code POST /v1/timers}, {@code PUT}, {@code DELETE}, touch).
   */
  public Pipeline pipeline() {
    return pipeline;
  }

  /** How many coalesced store writes the {@link #pipeline()} made since start. */
  public long pipelineStoreWrites() {
    return coalescer.storeWrites();
  }

  /**
   * How many of the {@link #pipeline()}'s writes wait for a coalesced store write of their kind to answer (see
   * {@link TurnCoalescer}). On the owner context only.
   */
  public int pipelineWaiting() {
    return coalescer.waiting();
  }

  /**
   * Pauses a timer: it fires no more until resumed, and leaves the wheel (still pending, stored with
   * {@code paused: true}); touch and upsert keep it paused. Pausing a paused timer changes nothing.
   *
   * @return {@link WriteOutcome.Paused} with the stored timer, or {@link NotFound}, {@link Busy},
   *     {@link Refusal.ChangedConcurrently}, {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> pause(String id) {
    return ready ? pauses.pause(id) : recovering();
  }

  /**
   * Resumes a paused timer ({@link Schedule#resume}): due times that passed while paused are skipped, except a
   * {@code once} timer's, which fires at once. Resuming a timer that is not paused changes nothing.
   *
   * @return {@link WriteOutcome.Resumed} with the stored timer, or {@link NotFound} (also when it had nothing left due
   *     and ended), {@link Busy}, {@link Refusal.ChangedConcurrently}, {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> resume(String id) {
    return ready ? pauses.resume(id) : recovering();
  }

  /**
   * Fires a timer once now, out of its schedule, through the fire path (recorded in the firing log, published); a
   * {@code once} timer is then done, a periodic one keeps its due time and schedule. Works on a paused timer (which
   * stays paused) and on a timer of a paused topic (an explicit request).
   *
   * @return {@link WriteOutcome.FiredNow} with the timer after the firing, or {@link NotFound}, {@link Busy},
   *     {@link Refusal.ChangedConcurrently}, {@link Recovering}
   */
  public Future<WriteOutcome> fireNow(String id) {
    if (!ready) {
      return recovering();
    }
    if (!pending.mayExist(id)) {
      return Future.succeededFuture(new NotFound(id));
    }
    return pending.hold(id, opts.lockTimeoutMs()).compose(held -> {
      if (!held) {
        return Future.succeededFuture(new Busy(id));
      }
      return pending.take(id).transform(ar -> {
        Timer old = ar.succeeded() ? ar.result() : null;
        if (old == null) {          // it ended (fired its last) while we waited, or was never there
          pending.release(id);
          return Future.succeededFuture(ar.failed() ? Refusal.ofStoreFailure(ar.cause(), false) : new NotFound(id));
        }
        return fireLoop.fireNow(old);
      });
    });
  }

  /**
   * Pauses a topic, durably: none of its timers fires until it is resumed (those that come due are held back).
   *
   * @return {@link WriteOutcome.TopicChanged}, or {@link Refusal.TooManyPausedTopics}, {@link Recovering}, or the
   *     store's failure
   */
  public Future<WriteOutcome> pauseTopic(String topic) {
    return ready ? topics.pause(topic) : recovering();
  }

  /**
   * Resumes a topic, durably: its held-back timers are armed again and their missed due times follow their
   * {@code misfire} rule. Resuming a topic that is not paused changes nothing.
   *
   * @return {@link WriteOutcome.TopicChanged}, or {@link Recovering}, or the store's failure
   */
  public Future<WriteOutcome> resumeTopic(String topic) {
    return ready ? topics.resume(topic) : recovering();
  }

  private static Future<WriteOutcome> recovering() {
    return Future.succeededFuture(new Recovering());
  }

  // ------------------------------------------------------------------ helpers

  private Future<Void> onOwner(Runnable r) {
    return OnOwner.run(owner, r);
  }
}
