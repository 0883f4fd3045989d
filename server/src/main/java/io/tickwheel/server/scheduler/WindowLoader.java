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
 * <p>At recovery ({@link #recover}) it reads the store's count and the timers due in the next
 * {@value #RECOVERY_SPAN_MS} ms at most (overdue ones included): the rest stays far, and the rest of the window is
 * read as the first step once started. A page read that fails is tried again after {@link Backoff}.
 *
 * <p><b>Owner context only</b> (not thread safe); time only through the injected clock. Not started (unit tests), it
 * moves only when {@link #catchUp} is called.
 */
final class WindowLoader {

  /** Most timers read and placed per page. */
  static final int PAGE = 1_000;
  /**
   * Chains of pages the recovery reads side by side: at most this many pages (of at most {@value #PAGE} timers with
   * their payloads) are in memory at once.
   */
  static final int RECOVERY_CHAINS = 2;
  /** How far ahead of the clock a recovery reads before the node serves, ms; the loader reads the rest after. */
  static final long RECOVERY_SPAN_MS = 10_000;
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
  private SharedTicker.Task periodic;
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
   * Recovery, on the owner context before anything else runs: the bound at {@code now} plus the smaller of
   * {@value #RECOVERY_SPAN_MS} ms and {@code windowMs} (a window of at most {@value #RECOVERY_SPAN_MS} ms: its
   * bound rounded up to a step, as the loader moves it), every timer due before it placed in memory
   * ({@link PendingTimers#load}), the others counted far (and of them the paused ones, from the store's
   * {@link DueIndex#pausedCount}). The rest of the window is read by the loader once {@link #start started} (or by
   * {@link #catchUp}), as it reads every step, while the node serves: how long a restart takes does not grow with
   * the window, and the loader, reading in due order, has {@value #RECOVERY_SPAN_MS} ms before the first of those
   * timers is due.
   *
   * <p>The window is read as {@value #RECOVERY_CHAINS} chains of pages over disjoint ranges of due time (the overdue
   * timers and the first slice of the window, then the other slices), so the store reads one chain's page while the
   * owner places another's: a timer is in the one range its due time falls in, and placing is order-free.
   *
   * @return the number of timers placed in memory
   */
  Future<Long> recover() {
    long now = clock.getAsLong();
    long b = windowMs <= RECOVERY_SPAN_MS ? stepUp(now + windowMs) : now + RECOVERY_SPAN_MS;
    pending.bound(b);
    return index.timerCount().compose(count -> index.pausedCount().compose(paused -> readWindow(now, b).map(loaded -> {
      pending.farCount(Math.max(0, count - loaded));
      pending.farPausedCount(Math.max(0, paused - pending.pausedCount()));
      return loaded;
    })));
  }

  /** Every timer due before {@code until}, in {@value #RECOVERY_CHAINS} chains; completes with how many. */
  private Future<Long> readWindow(long now, long until) {
    long slice = Math.max(1, (until - now) / RECOVERY_CHAINS);
    List<Future<Long>> chains = new ArrayList<>(RECOVERY_CHAINS);
    long from = Long.MIN_VALUE;
    for (int i = 0; i < RECOVERY_CHAINS; i++) {
      long to = i == RECOVERY_CHAINS - 1 ? until : Math.min(until, now + slice * (i + 1));
      if (to > from) {
        Promise<Long> done = Promise.promise();
        readAll(from, to, null, 0, done);
        chains.add(done.future());
        from = to;
      }
    }
    return Future.all(chains).map(all -> {
      long n = 0;
      for (Future<Long> f : chains) {
        n += f.result();
      }
      return n;
    });
  }

  /**
   * One page of a recovery chain over {@code [from, until)}, placed in memory, then the next as a new owner task (not
   * as a future composed on this one: a window of millions of timers is thousands of pages, and a chain of that many
   * futures completing one another would overflow the stack).
   */
  private void readAll(long from, long until, TimerCursor after, long sofar, Promise<Long> done) {
    index.dueBetween(from, until, after, PAGE).compose(page -> onOwner(() -> {
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
        owner.runOnContext(v -> readAll(from, until, page.next(), n, done));
      }
    });
  }

  /**
   * Looks at the clock every {@value #CHECK_MS} ms from now on, in the one tick of the owner context that looks for
   * every partition it serves ({@link SharedTicker}).
   */
  void start() {
    periodic = SharedTicker.of(owner, CHECK_MS).add(this::tick);
    tick();
  }

  void stop() {
    stopped = true;
    if (periodic != null) {
      periodic.cancel();
      periodic = null;
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
