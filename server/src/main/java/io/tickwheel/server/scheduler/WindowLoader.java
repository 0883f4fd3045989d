package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Moves the window of the {@link PendingTimers}' two tiers: keeps the bound at least {@code windowMs} ahead of the
 * clock, reading the timers between the old bound and the new one from the store's {@link DueIndex} in pages of at
 * most {@value #PAGE} (one page placed per event-loop task) and placing them in memory
 * ({@link PendingTimers#loadFar}). The bound moves first, so a write made while the pages are read places a timer due
 * before the new bound in memory itself; the pending timers skip what such writes placed.
 *
 * <p>At recovery ({@link #recover}) it reads the store's count and the timers due before {@code now + windowMs}
 * (overdue ones included): the rest stays far. A page read that fails is tried again after {@link Backoff}.
 *
 * <p><b>Owner context only</b> (not thread safe); time only through the injected clock. Not started (unit tests), it
 * moves only when {@link #catchUp} is called.
 */
final class WindowLoader {

  /** Most timers read and placed per page. */
  static final int PAGE = 1_000;
  /** How often the started loader looks at the clock, ms. */
  static final long CHECK_MS = 250;

  private final Vertx vertx;
  private final Context owner;
  private final DueIndex index;
  private final PendingTimers pending;
  private final LongSupplier clock;
  private final long windowMs;
  private final long stepMs;

  private boolean loading;
  private long from;
  private long to;
  private TimerCursor cursor;
  private int attempt;
  private long periodic = -1;
  private boolean stopped;
  private final List<Promise<Void>> waiting = new ArrayList<>();
  private long loadedTotal;

  /**
   * @param windowMs how far ahead of the clock every timer is in memory, ms, {@code >= 2}
   */
  WindowLoader(Vertx vertx, Context owner, DueIndex index, PendingTimers pending, LongSupplier clock, long windowMs) {
    this.vertx = vertx;
    this.owner = owner;
    this.index = index;
    this.pending = pending;
    this.clock = clock;
    this.windowMs = windowMs;
    this.stepMs = Math.max(1, windowMs / 10);
  }

  /**
   * Recovery, on the owner context before anything else runs: the bound at {@code now + windowMs} (rounded up to a
   * step), every timer due before it placed in memory ({@link PendingTimers#load}), the others counted far (and of
   * them the paused ones, from the store's {@link DueIndex#pausedCount}).
   *
   * @return the number of timers placed in memory
   */
  Future<Long> recover() {
    long b = stepUp(clock.getAsLong() + windowMs);
    pending.bound(b);
    return index.timerCount().compose(count -> index.pausedCount().compose(paused -> readAll(b).map(loaded -> {
      pending.farCount(Math.max(0, count - loaded));
      pending.farPausedCount(Math.max(0, paused - pending.pausedCount()));
      return loaded;
    })));
  }

  private Future<Long> readAll(long until) {
    Promise<Long> done = Promise.promise();
    readAll(until, null, 0, done);
    return done.future();
  }

  /**
   * One page of the recovery read, placed in memory, then the next as a new owner task (not as a future composed on
   * this one: a window of millions of timers is thousands of pages, and a chain of that many futures completing one
   * another would overflow the stack).
   */
  private void readAll(long until, TimerCursor after, long sofar, Promise<Long> done) {
    index.dueBetween(Long.MIN_VALUE, until, after, PAGE).compose(page -> onOwner(() -> {
      for (Timer t : page.timers()) {
        pending.load(t);
      }
    }).map(v -> page)).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      TimerPage page = ar.result();
      long n = sofar + page.timers().size();
      if (page.next() == null) {
        done.complete(n);
      } else {
        owner.runOnContext(v -> readAll(until, page.next(), n, done));
      }
    });
  }

  /** Looks at the clock every {@value #CHECK_MS} ms from now on. */
  void start() {
    periodic = vertx.setPeriodic(CHECK_MS, id -> tick());
    tick();
  }

  void stop() {
    stopped = true;
    if (periodic >= 0) {
      vertx.cancelTimer(periodic);
    }
    waiting.forEach(p -> p.tryComplete());
    waiting.clear();
  }

  /** Timers placed in memory from the far tier since start. */
  long loaded() {
    return loadedTotal;
  }

  /** Completes once the bound is at least {@code windowMs} ahead of the clock's now and no page is being read. */
  Future<Void> catchUp() {
    tick();
    if (!loading) {
      return Future.succeededFuture();
    }
    Promise<Void> p = Promise.promise();
    waiting.add(p);
    return p.future();
  }

  /** Starts moving the bound if it is less than {@code windowMs} ahead. */
  void tick() {
    if (stopped || loading) {
      return;
    }
    long want = clock.getAsLong() + windowMs;
    long bound = pending.bound();
    if (want < bound) {
      return;
    }
    from = bound;
    to = stepUp(want + 1);
    pending.bound(to);
    cursor = null;
    loading = true;
    readPage();
  }

  private void readPage() {
    if (stopped) {
      return;
    }
    pending.readStarted();
    index.dueBetween(from, to, cursor, PAGE).onComplete(ar -> {
      if (ar.failed()) {
        pending.readDone();
        vertx.setTimer(Backoff.delayMs(attempt++), id -> readPage());
        return;
      }
      attempt = 0;
      TimerPage page = ar.result();
      for (Timer t : page.timers()) {
        if (pending.loadFar(t)) {
          loadedTotal++;
        }
      }
      pending.readDone();
      if (page.next() != null) {
        cursor = page.next();
        owner.runOnContext(v -> readPage());
        return;
      }
      loading = false;
      tick();                  // the clock may have moved on meanwhile
      if (!loading) {
        List<Promise<Void>> done = new ArrayList<>(waiting);
        waiting.clear();
        done.forEach(Promise::tryComplete);
      }
    });
  }

  /** {@code ms} rounded up to a multiple of the step. */
  private long stepUp(long ms) {
    long r = Math.floorMod(ms, stepMs);
    return r == 0 ? ms : ms + (stepMs - r);
  }

  private Future<Void> onOwner(Runnable r) {
    return OnOwner.run(owner, r);
  }
}
