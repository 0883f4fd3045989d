package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.FiringRequest;
import io.tickwheel.core.store.FiringResult;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The embedded default store: timers and the firing log in RocksDB (RocksJava), one directory per store.
 *
 * <h2>Layout</h2>
 * Four column families (see {@code Keys}): {@code timers} by id (bloom filter; values encoded with
 * {@code Codec}), {@code due} (big-endian {@code nextDueAt} + id, for listing in due
 * order), {@code firings} by big-endian seq, {@code meta} with the sequence counter and the paused topics. Every write call is one
 * atomic {@code WriteBatch}: a timer and its index entry, a firing and its timer's advance or removal, and the
 * counter always change together.
 *
 * <h2>Threads</h2>
 * No method blocks or calls RocksDB on the caller's thread. Writes ({@code put, putAll, update, remove,
 * recordFirings, trimFirings, setTopicPaused}) are queued to one writer thread that group-commits: it folds every call queued
 * at that moment (up to {@link RocksDbStoreOptions#getMaxGroupOps()}) into one batch, in queue order, with an
 * overlay of the timers already touched by the group so conditional checks see earlier calls of the same
 * group; then one {@code db.write}, then the futures complete. Reads ({@code get, list, readFirings, lastSeq,
 * pausedTopics, loadAll}) run on a small pool of reader threads (RocksDB reads are thread safe), so they do not wait behind
 * unrelated write work. Futures complete on the caller's Vert.x context (an event-loop context of the
 * {@code Vertx} given to {@link #open} when called from a non-Vert.x thread). Thread safe.
 *
 * <h2>Order</h2>
 * Writes apply in the order they were called (one FIFO queue). A read waits until every write called before
 * it (from any thread) has been applied, then reads the live database: a {@code get} after a {@code put}
 * always sees the put, even if the caller did not wait for the put's future. A read is not isolated from
 * writes called after it (it may see some of them).
 *
 * <h2>Durability</h2>
 * A write future succeeds only after its group is in the write-ahead log (always on): it survives a crash of
 * the process (kill -9). With {@link RocksDbStoreOptions#setFsync fsync} every group is also fsynced before its
 * futures complete, so it survives a power loss; without it, the last writes before a power loss may be lost.
 *
 * <h2>Failures</h2>
 * Calls fail only with the SPI's {@link io.tickwheel.core.store.StoreException}s: a full queue or a RocksDB I/O
 * error (full disk, busy, …) is a {@link StoreUnavailableException}, corruption or an undecodable record a
 * {@link io.tickwheel.core.store.StoreFaultException}, a closed store a {@link StoreClosedException}.
 * {@code mayHaveApplied()} is {@code true} only when the group's {@code db.write} itself failed (it may have
 * reached the WAL, e.g. when its fsync failed); a call refused or rolled back before the write was not applied.
 *
 * <h2>Bounds</h2>
 * At most {@code maxQueuedWrites} write calls and {@code maxQueuedReads} read calls wait; beyond that a call
 * fails at once with {@link StoreUnavailableException}. {@code loadAll} holds at most one batch at a time. A
 * {@code list} examines at most 100,000 index entries per call; a {@code trimFirings} by age at most
 * {@code trimMaxScan} log entries, 10,000 per write (by count it is a single range delete); a {@code trimDeliveries}
 * removes at most {@code trimMaxScan} deliveries, 1,000 per write.
 */
public final class RocksDbTimerStore implements TimerStore, io.tickwheel.core.store.TimerExport,
    io.tickwheel.core.store.DueIndex {

  private static final System.Logger LOG = System.getLogger(RocksDbTimerStore.class.getName());

  private final Vertx vertx;
  private final Db db;
  private final EventLoopGuard guard = new EventLoopGuard();
  private final Reads reads;
  private final GroupCommitWriter writer;
  private final RecentTimers recent;
  private final ThreadPoolExecutor readers;
  private final LinkedBlockingQueue<WriteOp<?>> queue = new LinkedBlockingQueue<>();
  private final int maxQueuedWrites;
  private final int maxQueuedReads;
  private final Trims trims;
  private final AtomicInteger queuedReads = new AtomicInteger();
  private final Set<Reads.TimerScan> scans = ConcurrentHashMap.newKeySet();

  private final Object lock = new Object();
  /** Guarded by lock: the ticket of the latest queued write call. */
  private long lastTicket;
  /** Guarded by lock: every write call with a ticket up to this one has been applied (or failed). */
  private long appliedTicket;
  /** Guarded by lock: reads waiting for earlier writes, by ascending ticket. */
  private final ArrayDeque<PendingRead> waitingReads = new ArrayDeque<>();
  /** Guarded by lock. */
  private WriteOp.Close closeOp;
  /** Set once close() was called; a running loadAll stops at its next batch. */
  private volatile boolean closing;

  private record PendingRead(long ticket, Runnable task) {}

  private RocksDbTimerStore(Vertx vertx, RocksDbStoreOptions o, Db db) {
    this.vertx = vertx;
    this.db = db;
    this.maxQueuedWrites = o.getMaxQueuedWrites();
    this.maxQueuedReads = o.getMaxQueuedReads();
    this.trims = new Trims(this::submit, o.getTrimMaxScan());
    this.reads = new Reads(db, guard);
    long lastSeq;
    long firstRetained;
    long timerCount;
    long pausedCount;
    try {
      guard.check();
      byte[] counter = db.db.get(db.meta, Keys.LAST_SEQ);
      long lastFiring = db.lastKeyAsLong(db.firings);
      lastSeq = Math.max(Math.max(counter == null ? 0 : Keys.getLong(counter, 0), lastFiring), 0);
      long firstFiring = db.firstKeyAsLong(db.firings);
      firstRetained = firstFiring < 0 ? lastSeq + 1 : firstFiring;
      byte[] count = db.db.get(db.meta, Keys.TIMER_COUNT);
      if (count != null) {
        timerCount = Keys.getLong(count, 0);
      } else {
        // a database from before the counter: count once, and keep it from now on
        timerCount = reads.countTimers();
        db.db.put(db.meta, Keys.TIMER_COUNT, Keys.u64(timerCount));
      }
      byte[] paused = db.db.get(db.meta, Keys.PAUSED_COUNT);
      if (paused != null) {
        pausedCount = Keys.getLong(paused, 0);
      } else {
        // a database from before the per-topic and paused counts: count once, and keep them from now on
        pausedCount = reads.recountTopics();
      }
    } catch (org.rocksdb.RocksDBException e) {
      throw new StoreOpenException("data dir " + db.dir + " is unreadable: " + e.getMessage(), e);
    }
    AtomicInteger n = new AtomicInteger();
    this.readers = new ThreadPoolExecutor(o.getReaderThreads(), o.getReaderThreads(), 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), r -> daemon(r, "tickwheel-rocksdb-reader-" + n.incrementAndGet()));
    this.recent = new RecentTimers(o.getRecentTimers(), o.getRecentTimersBytes(), o.getRecentTimersHorizonMs(),
        System::currentTimeMillis);
    this.writer = new GroupCommitWriter(db, guard, queue, o.getMaxGroupOps(), recent, lastSeq, firstRetained,
        timerCount, pausedCount, this::writesApplied, this::shutdownNative);
    daemon(writer, "tickwheel-rocksdb-writer").start();
  }

  /**
   * Opens (creating if missing) the store in {@code options.getDataDir()}. The blocking open runs on a Vert.x
   * worker thread; the future completes on the caller's context.
   *
   * @return the open store, or a failed future with {@link StoreOpenException} when the directory is locked
   *         by another process, corrupt, unreadable, or holds something else
   */
  public static Future<RocksDbTimerStore> open(Vertx vertx, RocksDbStoreOptions options) {
    Objects.requireNonNull(vertx, "vertx");
    Objects.requireNonNull(options, "options");
    return vertx.executeBlocking(() -> {
      Db db = Db.open(options);
      try {
        return new RocksDbTimerStore(vertx, options, db);
      } catch (RuntimeException | Error e) {
        db.close();
        throw e;
      }
    }, false);
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  // ---- writes ----

  @Override
  public Future<Void> put(Timer t) {
    Objects.requireNonNull(t, "timer");
    return submit(new WriteOp.Put(callerContext(), List.of(t)));
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    return submit(new WriteOp.Put(callerContext(), List.copyOf(timers)));
  }

  /** As {@code putAll}, without reading the old versions from the database (see {@link TimerStore#createAll}). */
  @Override
  public Future<Void> createAll(List<Timer> timers) {
    return submit(new WriteOp.Put(callerContext(), List.copyOf(timers), true));
  }

  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    Objects.requireNonNull(next, "next");
    return submit(new WriteOp.Update(callerContext(), next, expectedGeneration));
  }

  /** One queued write: the old versions are read with one multiGet, the new ones join the writer's group batch. */
  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    try {
      TimerStore.checkUpdateAll(next, expectedGenerations);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return submit(new WriteOp.UpdateAll(callerContext(), List.copyOf(next), expectedGenerations.clone()));
  }

  @Override
  public Future<Boolean> remove(String id) {
    Objects.requireNonNull(id, "id");
    return submit(new WriteOp.Remove(callerContext(), id));
  }

  @Override
  public Future<List<FiringResult>> recordFirings(List<FiringRequest> requests) {
    return submit(new WriteOp.RecordFirings(callerContext(), List.copyOf(requests)));
  }

  @Override
  public Future<Long> trimFirings(Retention retention, long nowMs) {
    Objects.requireNonNull(retention, "retention");
    return trims.firings(callerContext(), retention, nowMs);
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    Objects.requireNonNull(topic, "topic");
    return submit(new WriteOp.SetTopicPaused(callerContext(), topic, paused));
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    Objects.requireNonNull(generatedIfAbsent, "generatedIfAbsent");
    return submit(new WriteOp.WebhookSecret(callerContext(), generatedIfAbsent));
  }

  private <T> Future<T> submit(WriteOp<T> op) {
    synchronized (lock) {
      if (closeOp != null) {
        return closedFuture();
      }
      if (queue.size() >= maxQueuedWrites) {
        return Future.failedFuture(new StoreUnavailableException(
            "rocksdb write queue is full (" + maxQueuedWrites + " calls waiting)", null, false));
      }
      op.ticket = ++lastTicket;
      queue.add(op);
    }
    return op.promise.future();
  }

  /** Writer thread: every call up to {@code ticket} is applied; release the reads that waited for them. */
  private void writesApplied(long ticket) {
    synchronized (lock) {
      appliedTicket = ticket;
      while (!waitingReads.isEmpty() && waitingReads.peekFirst().ticket() <= ticket) {
        readers.execute(waitingReads.pollFirst().task());
      }
    }
  }

  // ---- reads ----

  @Override
  public Future<Timer> get(String id) {
    Objects.requireNonNull(id, "id");
    return read(() -> reads.get(id));
  }

  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    if (limit < 0) {
      return Future.failedFuture(new IllegalArgumentException("limit must be >= 0, was " + limit));
    }
    return read(() -> reads.list(topic, after, limit));
  }

  @Override
  public Future<List<Firing>> readFirings(long afterSeq, int limit) {
    if (limit < 0) {
      return Future.failedFuture(new IllegalArgumentException("limit must be >= 0, was " + limit));
    }
    return read(() -> reads.readFirings(afterSeq, limit));
  }

  /**
   * {@inheritDoc}
   *
   * <p>One iterator over the {@code due} family between the bounds, then one {@code multiGet} of the records; an
   * index entry whose record disagrees (left behind by a {@code createAll} of a stored id) is skipped.
   */
  @Override
  public Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int limit) {
    try {
      io.tickwheel.core.store.DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return read(() -> reads.dueBetween(fromMs, toMs, after, limit));
  }

  /** {@inheritDoc} One {@code multiGet} of the records, not waiting for the writes in flight. */
  @Override
  public Future<Set<String>> storedIds(List<String> ids) {
    if (ids.size() > MAX_DUE_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException("at most " + MAX_DUE_LIMIT + " ids, was " + ids.size()));
    }
    if (ids.isEmpty()) {
      return Future.succeededFuture(new java.util.HashSet<>());
    }
    return read(() -> reads.storedIds(ids), false);
  }

  /** {@inheritDoc} One queued write: one {@code multiGet} of the old versions, the new timers join the group batch. */
  @Override
  public Future<Set<String>> createAbsent(List<Timer> timers) {
    try {
      io.tickwheel.core.store.DueIndex.checkCreateAbsent(timers);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (timers.isEmpty()) {
      return Future.succeededFuture(new java.util.HashSet<>());
    }
    return submit(new WriteOp.CreateAbsent(callerContext(), List.copyOf(timers)));
  }

  /** {@inheritDoc} A counter kept in the {@code meta} family with every write group that changes it. */
  @Override
  public Future<Long> timerCount() {
    return read(writer::timerCount);
  }

  /** {@inheritDoc} One iterator over the {@code "topicCount:"} keys of the {@code meta} family. */
  @Override
  public Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    try {
      io.tickwheel.core.store.DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return read(() -> reads.topicCounts(after, limit));
  }

  /** {@inheritDoc} One {@code get} of its {@code "topicCount:"} key. */
  @Override
  public Future<Long> topicCount(String topic) {
    Objects.requireNonNull(topic, "topic");
    return read(() -> reads.topicCount(topic));
  }

  /** {@inheritDoc} A counter kept in the {@code meta} family with every write group that changes it. */
  @Override
  public Future<Long> pausedCount() {
    return read(writer::pausedCount);
  }

  @Override
  public Future<Long> lastSeq() {
    return read(writer::lastSeq);
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return read(reads::pausedTopics);
  }

  /**
   * Streams every timer from the {@code timers} family (id order, one RocksDB iterator with a 4 MiB
   * readahead that does not fill the block cache). Each batch is read on a reader thread and handed to
   * {@code sink} on the caller's context; the next batch is read only after the sink's future succeeded. A
   * failed sink future, or closing the store, ends the stream with that failure.
   */
  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Objects.requireNonNull(sink, "sink");
    Context ctx = callerContext();
    return read(() -> {
      Reads.TimerScan scan = new Reads.TimerScan(db, guard);
      scans.add(scan);
      return scan;
    }).compose(scan -> {
      Promise<Long> done = Promise.promise();
      pump(scan, batchSize, sink, 0L, done, ctx);
      return done.future();
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>One RocksDB snapshot, taken once every write called before has been applied, read in id order by one iterator
   * (as {@link #loadAll}: a batch at a time on a reader thread, 4 MiB readahead, no block-cache fill); the snapshot
   * and iterator are released when the export ends, fails or the store closes. A consistent point-in-time view:
   * writes after it are not seen.
   */
  @Override
  public Future<Long> exportAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Objects.requireNonNull(sink, "sink");
    Context ctx = callerContext();
    return read(() -> {
      Reads.TimerScan scan = new Reads.TimerScan(db, guard, true);
      scans.add(scan);
      return scan;
    }).compose(scan -> {
      Promise<Long> done = Promise.promise();
      pump(scan, batchSize, sink, 0L, done, ctx);
      return done.future();
    });
  }

  /** One loadAll step: read a batch on a reader thread, then feed it to the sink on {@code ctx}. */
  private void pump(Reads.TimerScan scan, int batchSize, Function<List<Timer>, Future<Void>> sink, long count,
      Promise<Long> done, Context ctx) {
    if (closing) {
      abortScan(scan);
      ctx.runOnContext(v -> done.fail(new StoreClosedException("rocksdb store was closed during loadAll")));
      return;
    }
    Runnable step = () -> {
      List<Timer> batch;
      boolean end;
      try {
        batch = scan.next(batchSize);
        end = scan.exhausted();
        if (end) {
          closeScan(scan);
        }
      } catch (Throwable e) {
        closeScan(scan);
        ctx.runOnContext(v -> done.fail(Failures.of(db.dir, "loadAll", e, false)));
        return;
      }
      ctx.runOnContext(v -> {
        if (batch.isEmpty()) {
          done.complete(count);
          return;
        }
        long total = count + batch.size();
        Future<Void> fed;
        try {
          fed = sink.apply(Collections.unmodifiableList(batch));
        } catch (Throwable e) {
          fed = Future.failedFuture(e);
        }
        fed.onComplete(ar -> {
          if (ar.failed()) {
            abortScan(scan);
            ctx.runOnContext(x -> done.fail(ar.cause()));
          } else if (end) {
            ctx.runOnContext(x -> done.complete(total));
          } else {
            pump(scan, batchSize, sink, total, done, ctx);
          }
        });
      });
    };
    try {
      readers.execute(step);
    } catch (RejectedExecutionException e) {
      // the store is closing; close() closes the scan
      ctx.runOnContext(v -> done.fail(new StoreClosedException("rocksdb store was closed during loadAll")));
    }
  }

  private void closeScan(Reads.TimerScan scan) {
    scans.remove(scan);
    scan.close();
  }

  private void abortScan(Reads.TimerScan scan) {
    try {
      readers.execute(() -> closeScan(scan));
    } catch (RejectedExecutionException e) {
      // the store is closing; close() closes the scan
    }
  }

  // ------------------------------------------------------------------ deliveries (meta family; see Keys)

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return read(() -> reads.delivery(seq));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    if (limit < 1) {
      return Future.failedFuture(new IllegalArgumentException("limit must be >= 1, was " + limit));
    }
    return read(() -> reads.deliveries(state, afterSeq, limit));
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    Objects.requireNonNull(d, "d");
    return submit(new WriteOp.UpdateDelivery(callerContext(), d, expected));
  }

  /** Pages through the pending index, one reader call per batch, each handed to {@code sink} before the next. */
  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Objects.requireNonNull(sink, "sink");
    return io.tickwheel.core.store.DeliveryTable.pagePending(this, batchSize, sink);
  }

  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    Objects.requireNonNull(retention, "retention");
    return trims.deliveries(callerContext(), retention, nowMs);
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    Objects.requireNonNull(state, "state");
    return read(() -> reads.deliveryCount(state));
  }

  /** A blocking read call, run on a reader thread once every write called before it is applied. */
  private interface ReadCall<T> {
    T call() throws Exception;
  }

  private <T> Future<T> read(ReadCall<T> call) {
    return read(call, true);
  }

  /** A read; {@code ordered}: after every write called before it (else at once, beside the writes in flight). */
  private <T> Future<T> read(ReadCall<T> call, boolean ordered) {
    Context ctx = callerContext();
    Promise<T> promise = Promise.promise();
    Runnable task = () -> {
      T value = null;
      Throwable failure = null;
      try {
        value = call.call();
      } catch (Throwable e) {
        failure = Failures.of(db.dir, "read", e, false);
      } finally {
        queuedReads.decrementAndGet();
      }
      T v = value;
      Throwable f = failure;
      ctx.runOnContext(x -> {
        if (f != null) {
          promise.fail(f);
        } else {
          promise.complete(v);
        }
      });
    };
    synchronized (lock) {
      if (closeOp != null) {
        return closedFuture();
      }
      if (queuedReads.get() >= maxQueuedReads) {
        return Future.failedFuture(new StoreUnavailableException(
            "rocksdb read queue is full (" + maxQueuedReads + " calls waiting)", null, false));
      }
      queuedReads.incrementAndGet();
      if (!ordered || appliedTicket >= lastTicket) {
        readers.execute(task);
      } else {
        waitingReads.addLast(new PendingRead(lastTicket, task));
      }
    }
    return promise.future();
  }

  // ---- close ----

  /**
   * Closes the store: calls made afterwards fail with {@link StoreClosedException}; every write queued before
   * is written, reads in flight finish, a running {@code loadAll} fails, then the memtables are flushed and
   * every native handle released (on the writer thread). Idempotent: every call returns the same future.
   */
  @Override
  public Future<Void> close() {
    synchronized (lock) {
      if (closeOp == null) {
        closing = true;
        closeOp = new WriteOp.Close(callerContext());
        closeOp.ticket = ++lastTicket;
        queue.add(closeOp);
      }
      return closeOp.promise.future();
    }
  }

  /** Writer thread, after the last write. */
  private void shutdownNative() {
    readers.shutdown();
    try {
      while (!readers.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.log(System.Logger.Level.WARNING, "rocksdb store close: still waiting for reads to finish in {0}",
            db.dir);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.log(System.Logger.Level.WARNING, "interrupted while closing; native handles are leaked", e);
      return;
    }
    for (Reads.TimerScan s : scans) {
      s.close();
    }
    scans.clear();
    guard.check();
    db.close();
  }

  // ---- observability (package-private hooks and public counters) ----

  /** Group commits written so far. */
  public long writeGroups() {
    return writer.groups.sum();
  }

  /** Write calls applied so far (each {@code putAll}/{@code recordFirings} counts once). */
  public long writeCalls() {
    return writer.ops.sum();
  }

  /** Timers the writer found among those it wrote recently instead of reading them (tests). */
  long recentTimerHits() {
    return recent.hits();
  }

  /** RocksDB calls made on a Vert.x event-loop thread so far: always 0 (asserted by the tests). */
  long eventLoopNativeCalls() {
    return guard.violations();
  }

  /** For tests: the guard, to prove it counts. */
  EventLoopGuard guard() {
    return guard;
  }

  // ---- helpers ----

  private Context callerContext() {
    Context c = Vertx.currentContext();
    return c != null ? c : vertx.getOrCreateContext();
  }

  private static <T> Future<T> closedFuture() {
    return Future.failedFuture(new StoreClosedException("rocksdb store is closed"));
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
