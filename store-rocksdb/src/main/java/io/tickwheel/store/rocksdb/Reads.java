package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.StoreClosedException;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/** The blocking read paths; run on the store's reader threads only. Stateless apart from the handles. */
final class Reads {

  /** A listing examines at most this many index entries per call (bounded work; the cursor goes on). */
  static final int LIST_MAX_SCAN = 100_000;

  private final Db db;
  private final EventLoopGuard guard;

  Reads(Db db, EventLoopGuard guard) {
    this.db = db;
    this.guard = guard;
  }

  Timer get(String id) throws RocksDBException {
    guard.check();
    byte[] v = db.db.get(db.timers, Keys.id(id));
    return v == null ? null : Codec.decodeTimer(id, v);
  }

  /**
   * A page by {@code nextDueAt} then id, read from one snapshot (index and timers agree). When
   * {@link #LIST_MAX_SCAN} index entries did not yield {@code limit} timers of {@code topic}, the page is short
   * and {@code next} points after the last examined entry.
   */
  TimerPage list(String topic, TimerCursor after, int limit) throws RocksDBException {
    if (limit == 0) {
      return new TimerPage(List.of(), null);
    }
    byte[] topicBytes = topic == null ? null : topic.getBytes(StandardCharsets.UTF_8);
    guard.check();
    Snapshot snap = db.db.getSnapshot();
    try (ReadOptions ro = new ReadOptions().setSnapshot(snap);
        RocksIterator it = db.db.newIterator(db.due, ro)) {
      if (after == null) {
        it.seekToFirst();
      } else {
        byte[] k = Keys.due(after.dueAt(), after.id());
        it.seek(k);
        if (it.isValid() && Arrays.equals(it.key(), k)) {
          it.next();
        }
      }
      List<byte[]> ids = new ArrayList<>(Math.min(limit, 1024));
      List<Long> dues = new ArrayList<>(Math.min(limit, 1024));
      byte[] lastKey = null;
      int scanned = 0;
      for (; it.isValid() && ids.size() < limit && scanned < LIST_MAX_SCAN; scanned++, it.next()) {
        lastKey = it.key();
        if (topicBytes == null || Arrays.equals(it.value(), topicBytes)) {
          ids.add(Arrays.copyOfRange(lastKey, 8, lastKey.length));
          dues.add(Keys.dueAtOf(lastKey));
        }
      }
      TimerCursor next = null;
      if (ids.size() == limit) {
        boolean more = false;
        for (; it.isValid() && scanned < LIST_MAX_SCAN; scanned++, it.next()) {
          if (topicBytes == null || Arrays.equals(it.value(), topicBytes)) {
            more = true;
            break;
          }
        }
        more |= it.isValid(); // scan bound reached: there may be more
        if (more) {
          next = new TimerCursor(Keys.dueAtOf(lastKey), Keys.idOfDue(lastKey));
        }
      } else if (it.isValid() && lastKey != null) {
        next = new TimerCursor(Keys.dueAtOf(lastKey), Keys.idOfDue(lastKey));
      }
      it.status();
      List<Timer> timers = new ArrayList<>(ids.size());
      if (!ids.isEmpty()) {
        List<byte[]> values = db.db.multiGetAsList(ro, Collections.nCopies(ids.size(), db.timers), ids);
        for (int i = 0; i < values.size(); i++) {
          byte[] v = values.get(i);
          if (v != null) {
            Timer t = Codec.decodeTimer(ids.get(i), v);
            // an entry left behind by a createAll of an id that was stored after all: not this timer's place
            if (t.nextDueAt() == dues.get(i)) {
              timers.add(t);
            }
          }
        }
      }
      return new TimerPage(timers, next);
    } finally {
      db.db.releaseSnapshot(snap);
    }
  }

  /**
   * The timers with {@code fromMs <= nextDueAt < toMs} strictly after {@code after}, at most {@code limit}, from one
   * snapshot: the {@code due} family between the two bounds (an upper bound on the iterator, so nothing past
   * {@code toMs} is read), then one {@code multiGet} of the records.
   */
  TimerPage dueBetween(long fromMs, long toMs, TimerCursor after, int limit) throws RocksDBException {
    if (toMs <= fromMs) {
      return new TimerPage(List.of(), null);
    }
    byte[] lo = Keys.due(fromMs, new byte[0]);
    if (after != null) {
      byte[] a = Keys.due(after.dueAt(), after.id());
      if (Arrays.compareUnsigned(a, lo) >= 0) {
        lo = a;
      } else {
        after = null;
      }
    }
    guard.check();
    Snapshot snap = db.db.getSnapshot();
    try (org.rocksdb.Slice upper = new org.rocksdb.Slice(Keys.due(toMs, new byte[0]));
        ReadOptions ro = new ReadOptions().setSnapshot(snap).setIterateUpperBound(upper);
        RocksIterator it = db.db.newIterator(db.due, ro)) {
      it.seek(lo);
      if (after != null && it.isValid() && Arrays.equals(it.key(), lo)) {
        it.next();
      }
      List<byte[]> ids = new ArrayList<>(Math.min(limit, 1024));
      long[] dues = new long[limit];
      byte[] lastKey = null;
      for (; it.isValid() && ids.size() < limit; it.next()) {
        lastKey = it.key();
        dues[ids.size()] = Keys.dueAtOf(lastKey);
        ids.add(Arrays.copyOfRange(lastKey, 8, lastKey.length));
      }
      TimerCursor next = it.isValid() && lastKey != null
          ? new TimerCursor(Keys.dueAtOf(lastKey), Keys.idOfDue(lastKey)) : null;
      it.status();
      List<Timer> timers = new ArrayList<>(ids.size());
      if (!ids.isEmpty()) {
        List<byte[]> values = db.db.multiGetAsList(ro, Collections.nCopies(ids.size(), db.timers), ids);
        for (int i = 0; i < values.size(); i++) {
          byte[] v = values.get(i);
          if (v != null) {
            Timer t = Codec.decodeTimer(ids.get(i), v);
            if (t.nextDueAt() == dues[i]) {   // else an entry left behind by a createAll: not this timer's place
              timers.add(t);
            }
          }
        }
      }
      return new TimerPage(timers, next);
    } finally {
      db.db.releaseSnapshot(snap);
    }
  }

  /** Which of {@code ids} have a record: one {@code multiGet}. */
  java.util.Set<String> storedIds(List<String> ids) throws RocksDBException {
    guard.check();
    List<byte[]> keys = new ArrayList<>(ids.size());
    for (String id : ids) {
      keys.add(Keys.id(id));
    }
    List<byte[]> values = db.db.multiGetAsList(Collections.nCopies(keys.size(), db.timers), keys);
    java.util.Set<String> found = new java.util.HashSet<>();
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) != null) {
        found.add(ids.get(i));
      }
    }
    return found;
  }

  /** The number of records in the {@code timers} family, by iterating its keys (once, for an old database). */
  long countTimers() throws RocksDBException {
    guard.check();
    long n = 0;
    try (ReadOptions ro = new ReadOptions().setReadaheadSize(4L << 20).setFillCache(false);
        RocksIterator it = db.db.newIterator(db.timers, ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
      it.status();
    }
    return n;
  }

  /**
   * Counts the stored timers per topic and the paused ones by iterating the {@code timers} family (once, for a
   * database from before those counts), and writes the counts, replacing any per-topic count key, in one batch.
   *
   * @return the number of paused timers
   */
  long recountTopics() throws RocksDBException {
    guard.check();
    java.util.TreeMap<String, long[]> byTopic = new java.util.TreeMap<>();
    long paused = 0;
    try (ReadOptions ro = new ReadOptions().setReadaheadSize(4L << 20).setFillCache(false);
        RocksIterator it = db.db.newIterator(db.timers, ro)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        Codec.Head h = Codec.decodeHead(it.key(), it.value());
        byTopic.computeIfAbsent(h.topic(), k -> new long[1])[0]++;
        if (h.paused()) {
          paused++;
        }
      }
      it.status();
    }
    try (org.rocksdb.WriteBatch b = new org.rocksdb.WriteBatch();
        org.rocksdb.WriteOptions wo = new org.rocksdb.WriteOptions().setSync(true)) {
      byte[] end = Keys.TOPIC_COUNT.clone();
      end[end.length - 1]++;
      b.deleteRange(db.meta, Keys.TOPIC_COUNT, end);
      for (java.util.Map.Entry<String, long[]> e : byTopic.entrySet()) {
        b.put(db.meta, Keys.topicCount(e.getKey()), Keys.u64(e.getValue()[0]));
      }
      b.put(db.meta, Keys.PAUSED_COUNT, Keys.u64(paused));
      db.db.write(wo, b);
    }
    return paused;
  }

  /** The per-topic counts strictly after {@code after}, by name, at most {@code limit}. */
  List<io.tickwheel.core.store.TopicCount> topicCounts(String after, int limit) throws RocksDBException {
    guard.check();
    List<io.tickwheel.core.store.TopicCount> out = new ArrayList<>(Math.min(limit, 256));
    try (RocksIterator it = db.db.newIterator(db.meta)) {
      byte[] from = after == null ? Keys.TOPIC_COUNT : Keys.topicCount(after);
      for (it.seek(from); it.isValid() && out.size() < limit && Keys.isTopicCount(it.key()); it.next()) {
        String topic = Keys.topicOfCount(it.key());
        if (after != null && topic.equals(after)) {
          continue;
        }
        out.add(new io.tickwheel.core.store.TopicCount(topic, Keys.getLong(it.value(), 0)));
      }
      it.status();
    }
    return out;
  }

  /** The stored count of {@code topic}, 0 when it has no key. */
  long topicCount(String topic) throws RocksDBException {
    guard.check();
    byte[] v = db.db.get(db.meta, Keys.topicCount(topic));
    return v == null ? 0 : Keys.getLong(v, 0);
  }

  List<Firing> readFirings(long afterSeq, int limit) throws RocksDBException {
    List<Firing> out = new ArrayList<>(Math.min(limit, 1024));
    if (limit == 0 || afterSeq == Long.MAX_VALUE) {
      return out;
    }
    guard.check();
    try (RocksIterator it = db.db.newIterator(db.firings)) {
      it.seek(Keys.seq(Math.max(0, afterSeq + 1)));
      for (; it.isValid() && out.size() < limit; it.next()) {
        out.add(Codec.decodeFiring(it.key(), it.value()));
      }
      it.status();
    }
    return out;
  }

  /** The delivery {@code seq}, or {@code null}. */
  Delivery delivery(long seq) throws RocksDBException {
    guard.check();
    byte[] v = db.db.get(db.meta, Keys.delivery(seq));
    return v == null ? null : DeliveryJson.decode(v);
  }

  /** A page of deliveries after {@code afterSeq}: the records themselves, or the state index then the records. */
  DeliveryPage deliveries(DeliveryState state, long afterSeq, int limit) throws RocksDBException {
    guard.check();
    List<Delivery> page = new ArrayList<>(Math.min(limit, 1024));
    boolean more = false;
    try (org.rocksdb.Snapshot snap = db.db.getSnapshot();
        ReadOptions ro = new ReadOptions().setSnapshot(snap);
        RocksIterator it = db.db.newIterator(db.meta, ro)) {
      try {
        if (state == null) {
          for (it.seek(Keys.delivery(afterSeq + 1)); it.isValid() && Keys.isDelivery(it.key()); it.next()) {
            if (page.size() == limit) {
              more = true;
              break;
            }
            page.add(DeliveryJson.decode(it.value()));
          }
        } else {
          int st = state.ordinal();
          List<byte[]> keys = new ArrayList<>();
          for (it.seek(Keys.deliveryState(st, afterSeq + 1)); it.isValid() && Keys.isDeliveryState(it.key(), st);
              it.next()) {
            if (keys.size() == limit) {
              more = true;
              break;
            }
            keys.add(Keys.delivery(Keys.seqOfDeliveryState(it.key())));
          }
          if (!keys.isEmpty()) {
            for (byte[] v : db.db.multiGetAsList(ro, java.util.Collections.nCopies(keys.size(), db.meta), keys)) {
              if (v != null) {
                page.add(DeliveryJson.decode(v));
              }
            }
          }
        }
        it.status();
      } finally {
        db.db.releaseSnapshot(snap);
      }
    }
    return new DeliveryPage(page, more && !page.isEmpty() ? page.get(page.size() - 1).seq() : -1);
  }

  /** The stored count of deliveries in {@code state}. */
  long deliveryCount(DeliveryState state) throws RocksDBException {
    guard.check();
    byte[] v = db.db.get(db.meta, Keys.deliveryCount(state.ordinal()));
    return v == null ? 0 : Keys.getLong(v, 0);
  }

  /** The paused topics: a prefix scan of the {@code meta} family (one key per paused topic). */
  java.util.Set<String> pausedTopics() throws RocksDBException {
    java.util.Set<String> out = new java.util.HashSet<>();
    guard.check();
    try (RocksIterator it = db.db.newIterator(db.meta)) {
      for (it.seek(Keys.PAUSED_TOPIC); it.isValid() && Keys.isPausedTopic(it.key()); it.next()) {
        out.add(Keys.topicOfPaused(it.key()));
      }
      it.status();
    }
    return out;
  }

  /**
   * An iterator over the timers family for {@code loadAll} and {@code exportAll}: large readahead, no block-cache
   * pollution; for an export, over one snapshot (released by {@link #close()}).
   */
  static final class TimerScan implements AutoCloseable {
    private final Db db;
    private final ReadOptions ro;
    private final RocksIterator it;
    private final EventLoopGuard guard;
    private final Snapshot snapshot;
    private boolean closed;

    TimerScan(Db db, EventLoopGuard guard) {
      this(db, guard, false);
    }

    /** @param snapshot whether to read one point-in-time snapshot (taken now) */
    TimerScan(Db db, EventLoopGuard guard, boolean snapshot) {
      this.db = db;
      this.guard = guard;
      guard.check();
      this.snapshot = snapshot ? db.db.getSnapshot() : null;
      this.ro = new ReadOptions().setReadaheadSize(4L << 20).setFillCache(false);
      if (this.snapshot != null) {
        ro.setSnapshot(this.snapshot);
      }
      this.it = db.db.newIterator(db.timers, ro);
      it.seekToFirst();
    }

    /** The next at most {@code n} timers; empty at the end. */
    synchronized List<Timer> next(int n) throws RocksDBException {
      if (closed) {
        throw new StoreClosedException("rocksdb store was closed during loadAll");
      }
      guard.check();
      List<Timer> batch = new ArrayList<>(Math.min(n, 4096));
      for (; it.isValid() && batch.size() < n; it.next()) {
        batch.add(Codec.decodeTimer(it.key(), it.value()));
      }
      it.status();
      return batch;
    }

    synchronized boolean exhausted() {
      return closed || !it.isValid();
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        guard.check();
        it.close();
        ro.close();
        if (snapshot != null) {
          db.db.releaseSnapshot(snapshot);
        }
      }
    }
  }
}
