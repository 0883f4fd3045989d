package io.tickwheel.store.rocksdb;

import io.tickwheel.core.model.Firing;
import io.tickwheel.core.model.Timer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * One group commit being built by the writer thread: a {@link WriteBatch} plus an overlay of the timers the
 * group has touched so far, so a conditional check (generation, firing count, existence) sees the effects of
 * the earlier operations of the same group; and the tentative sequence counters. Each operation runs between
 * {@link #begin()} and {@link #commitOp()} or {@link #rollbackOp()} (a batch save point), so a failing
 * operation leaves no trace in the group. Confined to the writer thread.
 */
final class WriteGroup implements AutoCloseable {

  /** Overlay marker for a timer the group removed. */
  private static final Timer ABSENT =
      new Timer("-", "-", io.tickwheel.core.model.Kind.ONCE, 0, 0, 0, io.tickwheel.core.model.Misfire.FIRE_ONCE,
          null, 0, 0, 0, 0);

  final Db db;
  final WriteBatch batch = new WriteBatch();
  private final EventLoopGuard guard;
  private final Map<String, Timer> overlay = new HashMap<>();
  private final Map<String, Timer> opOverlay = new HashMap<>();
  private final long startLastSeq;
  /** The last seq assigned, this group included. */
  long lastSeq;
  /** The oldest retained seq, or {@code lastSeq + 1} when the log is empty. */
  long firstRetained;
  private long opLastSeq;
  /** The webhook secret as this group sees it, once one of its operations read or wrote it; else null. */
  String webhookSecret;
  private long opFirstRetained;

  WriteGroup(Db db, EventLoopGuard guard, long lastSeq, long firstRetained) {
    this.db = db;
    this.guard = guard;
    this.startLastSeq = lastSeq;
    this.lastSeq = lastSeq;
    this.firstRetained = firstRetained;
  }

  void begin() {
    opOverlay.clear();
    opLastSeq = lastSeq;
    opFirstRetained = firstRetained;
    batch.setSavePoint();
  }

  void commitOp() throws RocksDBException {
    overlay.putAll(opOverlay);
    opOverlay.clear();
    batch.popSavePoint();
  }

  void rollbackOp() throws RocksDBException {
    opOverlay.clear();
    lastSeq = opLastSeq;
    firstRetained = opFirstRetained;
    batch.rollbackToSavePoint();
  }

  /** The version of {@code id} this group has written (not yet in the database), or {@code null}. */
  Timer written(String id) {
    Timer t = opOverlay.get(id);
    if (t == null) {
      t = overlay.get(id);
    }
    return t == ABSENT ? null : t;
  }

  /** The timer as this group sees it: its own writes first, then the database. */
  Timer current(String id) throws RocksDBException {
    Timer t = opOverlay.get(id);
    if (t == null) {
      t = overlay.get(id);
    }
    if (t != null) {
      return t == ABSENT ? null : t;
    }
    guard.check();
    byte[] v = db.db.get(db.timers, Keys.id(id));
    return v == null ? null : Codec.decodeTimer(v);
  }

  /**
   * The stored timers of {@code ids} that this group has not touched, read with one {@code multiGet}
   * (absent ones map to {@code null}); pass the map to {@link #current(String, Map)}.
   */
  Map<String, Timer> prefetch(List<String> ids) throws RocksDBException {
    List<String> wanted = new ArrayList<>(ids.size());
    List<byte[]> keys = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (!opOverlay.containsKey(id) && !overlay.containsKey(id)) {
        wanted.add(id);
        keys.add(Keys.id(id));
      }
    }
    Map<String, Timer> out = new HashMap<>(wanted.size() * 2);
    if (keys.isEmpty()) {
      return out;
    }
    guard.check();
    List<byte[]> values = db.db.multiGetAsList(Collections.nCopies(keys.size(), db.timers), keys);
    for (int i = 0; i < wanted.size(); i++) {
      byte[] v = values.get(i);
      out.put(wanted.get(i), v == null ? null : Codec.decodeTimer(v));
    }
    return out;
  }

  /** Like {@link #current(String)}, taking the database state from {@code prefetched} when it has the id. */
  Timer current(String id, Map<String, Timer> prefetched) throws RocksDBException {
    if (!opOverlay.containsKey(id) && !overlay.containsKey(id) && prefetched.containsKey(id)) {
      return prefetched.get(id);
    }
    return current(id);
  }

  /** Writes {@code t} (payload included) replacing {@code old} (or nothing), keeping the due index in step. */
  void putTimer(Timer t, Timer old) throws RocksDBException {
    byte[] id = Keys.id(t.id());
    if (old != null && old.nextDueAt() != t.nextDueAt()) {
      batch.delete(db.due, Keys.due(old.nextDueAt(), id));
    }
    batch.put(db.timers, id, Codec.encodeTimer(t));
    batch.put(db.due, Keys.due(t.nextDueAt(), id), t.topic().getBytes(StandardCharsets.UTF_8));
    opOverlay.put(t.id(), t);
  }

  void deleteTimer(Timer old) throws RocksDBException {
    byte[] id = Keys.id(old.id());
    batch.delete(db.timers, id);
    batch.delete(db.due, Keys.due(old.nextDueAt(), id));
    opOverlay.put(old.id(), ABSENT);
  }

  /** Appends a firing with the next seq; returns it with its seq. */
  Firing appendFiring(Firing f) throws RocksDBException {
    Firing withSeq = f.withSeq(++lastSeq);
    batch.put(db.firings, Keys.seq(withSeq.seq()), Codec.encodeFiring(withSeq));
    return withSeq;
  }

  /** Adds the counter to the batch if the group assigned seqs; call once, after the last operation. */
  void finish() throws RocksDBException {
    if (lastSeq != startLastSeq) {
      batch.put(db.meta, Keys.LAST_SEQ, Keys.u64(lastSeq));
    }
  }

  @Override
  public void close() {
    batch.close();
  }
}
