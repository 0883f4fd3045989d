package io.tickwheel.store.rocksdb;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
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

  /** Overlay marker for a delivery the group removed. */
  private static final Delivery NO_DELIVERY = Delivery.pending(
      new Firing(1, "-", "-", 0, 0, 0, null), io.tickwheel.core.callback.Callback.to("http://-/"));

  final Db db;
  final WriteBatch batch = new WriteBatch();
  /** Checked before every native call a write makes, the group's own and its ops' ({@link Trims}). */
  final EventLoopGuard guard;
  private final RecentTimers recent;
  private Map<String, Timer> overlay = new HashMap<>();
  private Map<String, Timer> opOverlay = new HashMap<>();
  private final long startLastSeq;
  /** The number of stored timers, this group included (see {@link Keys#TIMER_COUNT}). */
  long timerCount;
  private final long startTimerCount;
  private long opTimerCount;
  /** The number of stored paused timers, this group included (see {@link Keys#PAUSED_COUNT}). */
  long pausedCount;
  private final long startPausedCount;
  private long opPausedCount;
  /** Per-topic changes of the stored timers' counts: committed operations, and the current one. */
  private final Map<String, long[]> topicDelta = new HashMap<>();
  private final Map<String, long[]> opTopicDelta = new HashMap<>();
  /** The writer's known per-topic counts (read by {@link #finish}, not changed here). */
  private final Map<String, Long> knownTopicCounts;
  /** The per-topic counts this group writes, set by {@link #finish} (0: the key is deleted). */
  final Map<String, Long> writtenTopicCounts = new HashMap<>();
  /** The last seq assigned, this group included. */
  long lastSeq;
  /** The oldest retained seq, or {@code lastSeq + 1} when the log is empty. */
  long firstRetained;
  private long opLastSeq;
  /** The webhook secret as this group sees it, once one of its operations read or wrote it; else null. */
  String webhookSecret;
  private long opFirstRetained;
  /** Deliveries this group wrote ({@link #NO_DELIVERY} when removed), committed ops and the current op. */
  private Map<Long, Delivery> dOverlay = new HashMap<>();
  private Map<Long, Delivery> dOpOverlay = new HashMap<>();
  /** Per-state delivery counts as of this group's writes, read on first use; and as of the current op's start. */
  private long[] dCounts;
  private long[] dCountsAtOpStart;
  private long[] dCountsStored;

  /** Due-index puts ({key, value}) and deletes (keys) held back by {@link #deferDueWrites}. */
  private final HeldKeys deferredDue = new HeldKeys(true);
  private final HeldKeys deferredDueDeletes = new HeldKeys(false);
  private boolean deferDue;

  WriteGroup(Db db, EventLoopGuard guard, RecentTimers recent, long lastSeq, long firstRetained, long timerCount) {
    this(db, guard, recent, lastSeq, firstRetained, timerCount, 0, new HashMap<>());
  }

  /**
   * @param pausedCount      the number of stored paused timers
   * @param knownTopicCounts per-topic counts the writer knows are stored (a topic absent here is read from the
   *                         database)
   */
  WriteGroup(Db db, EventLoopGuard guard, RecentTimers recent, long lastSeq, long firstRetained, long timerCount,
      long pausedCount, Map<String, Long> knownTopicCounts) {
    this.timerCount = timerCount;
    this.startTimerCount = timerCount;
    this.pausedCount = pausedCount;
    this.startPausedCount = pausedCount;
    this.knownTopicCounts = knownTopicCounts;
    this.db = db;
    this.guard = guard;
    this.recent = recent;
    this.startLastSeq = lastSeq;
    this.lastSeq = lastSeq;
    this.firstRetained = firstRetained;
  }

  void begin() {
    opOverlay.clear();
    deferredDue.clear();
    deferredDueDeletes.clear();
    deferDue = false;
    dOpOverlay.clear();
    dCountsAtOpStart = dCounts == null ? null : dCounts.clone();
    opLastSeq = lastSeq;
    opFirstRetained = firstRetained;
    opTimerCount = timerCount;
    opPausedCount = pausedCount;
    opTopicDelta.clear();
    batch.setSavePoint();
  }

  /**
   * Keeps the operation's writes. The first operation of a group hands its overlay over instead of copying it (a
   * group is often one {@code recordFirings} of a thousand timers, whose copy was a third of the writer's time).
   */
  void commitOp() throws RocksDBException {
    if (overlay.isEmpty()) {
      Map<String, Timer> empty = overlay;
      overlay = opOverlay;
      opOverlay = empty;
    } else {
      overlay.putAll(opOverlay);
      opOverlay.clear();
    }
    if (dOverlay.isEmpty()) {
      Map<Long, Delivery> empty = dOverlay;
      dOverlay = dOpOverlay;
      dOpOverlay = empty;
    } else {
      dOverlay.putAll(dOpOverlay);
      dOpOverlay.clear();
    }
    for (Map.Entry<String, long[]> e : opTopicDelta.entrySet()) {
      topicDelta.computeIfAbsent(e.getKey(), k -> new long[1])[0] += e.getValue()[0];
    }
    opTopicDelta.clear();
    batch.popSavePoint();
  }

  void rollbackOp() throws RocksDBException {
    opOverlay.clear();
    deferredDue.clear();
    deferredDueDeletes.clear();
    deferDue = false;
    dOpOverlay.clear();
    if (dCounts != null) {
      dCounts = dCountsAtOpStart != null ? dCountsAtOpStart : dCountsStored.clone();
    }
    lastSeq = opLastSeq;
    firstRetained = opFirstRetained;
    timerCount = opTimerCount;
    pausedCount = opPausedCount;
    opTopicDelta.clear();
    batch.rollbackToSavePoint();
  }

  /**
   * From now until {@link #endDeferDueWrites}, due-index deletes and puts go into the batch after the operation's other
   * writes, each kind in key order, instead of in turn. A firing re-arms its timer from one due time to a much later
   * one (a touch from one to another): written in turn, the due index's memtable got a delete near the first and an
   * insert near the second, alternately, and each insert searched its skip list from the top (RocksDB keeps the last
   * insert's position, useless when the next key is far away): a sixth of what re-arming 300,000 timers cost the
   * writer. Held back and sorted, each stretch is inserted in order. Reordering is safe because within one stretch
   * every key belongs to another timer: writing a timer this operation has already written flushes what is held
   * back first ({@link #holdBackFor}).
   */
  void deferDueWrites() {
    deferDue = true;
  }

  /** Writes the due-index deletes, then the puts, held back so far, each in key order. */
  private void flushDueWrites() throws RocksDBException {
    deferredDueDeletes.sort();
    for (int i = 0; i < deferredDueDeletes.size(); i++) {
      batch.delete(db.due, deferredDueDeletes.key(i));
    }
    deferredDueDeletes.clear();
    deferredDue.sort();
    for (int i = 0; i < deferredDue.size(); i++) {
      batch.put(db.due, deferredDue.key(i), deferredDue.value(i));
    }
    deferredDue.clear();
  }

  private void deleteDue(byte[] key) throws RocksDBException {
    if (deferDue) {
      deferredDueDeletes.add(key, null);
    } else {
      batch.delete(db.due, key);
    }
  }

  /** {@link #flushDueWrites} and writes in turn again. */
  void endDeferDueWrites() throws RocksDBException {
    flushDueWrites();
    deferDue = false;
  }

  /** Before a write of timer {@code id}: flushes what is held back if this operation has written {@code id}. */
  private void holdBackFor(String id) throws RocksDBException {
    if (deferDue && opOverlay.containsKey(id)) {
      flushDueWrites();
    }
  }

  /** The version of {@code id} this group has written (not yet in the database), or {@code null}. */
  Timer written(String id) {
    Timer t = opOverlay.get(id);
    if (t == null) {
      t = overlay.get(id);
    }
    return t == ABSENT ? null : t;
  }

  /**
   * {@code id} as known without reading the database: this operation's or group's write ({@link #ABSENT} when
   * removed), else the writer's recent committed version ({@link RecentTimers}), else {@code null}. A prefetched map
   * never holds an id known here ({@link #untouched} skips them), so the order against it does not matter.
   */
  private Timer known(String id) {
    Timer t = opOverlay.get(id);
    if (t == null) {
      t = overlay.get(id);
    }
    return t != null ? t : recent.get(id);
  }

  /** The timer as this group sees it: its own writes first, then the writer's recent ones, then the database. */
  Timer current(String id) throws RocksDBException {
    Timer t = known(id);
    if (t != null) {
      return t == ABSENT ? null : t;
    }
    guard.check();
    byte[] v = db.db.get(db.timers, Keys.id(id));
    return v == null ? null : Codec.decodeTimer(id, v);
  }

  /**
   * The stored timers of {@code ids} that this group has not touched, read with one {@code multiGet}
   * (absent ones map to {@code null}); pass the map to {@link #current(String, Map)}.
   */
  Map<String, Timer> prefetch(List<String> ids) throws RocksDBException {
    return untouched(ids, Codec::decodeTimer);
  }

  /**
   * The stored records of those of {@code ids} this group has not touched and the writer did not write recently
   * ({@link RecentTimers}), one {@code multiGet}, decoded.
   */
  private <T> Map<String, T> untouched(List<String> ids, java.util.function.BiFunction<String, byte[], T> decode)
      throws RocksDBException {
    List<String> wanted = new ArrayList<>(ids.size());
    List<byte[]> keys = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (!opOverlay.containsKey(id) && !overlay.containsKey(id) && !recent.has(id)) {
        wanted.add(id);
        keys.add(Keys.id(id));
      }
    }
    Map<String, T> out = new HashMap<>(wanted.size() * 2);
    if (keys.isEmpty()) {
      return out;
    }
    guard.check();
    List<byte[]> values = db.db.multiGetAsList(Collections.nCopies(keys.size(), db.timers), keys);
    for (int i = 0; i < wanted.size(); i++) {
      byte[] v = values.get(i);
      String id = wanted.get(i);
      out.put(id, v == null ? null : decode.apply(id, v));
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

  /**
   * The {@link Codec.Head}s of {@code ids} as this group sees them, for {@link #head}: the database's read with one
   * {@code multiGet} and decoded only up to the payload.
   */
  Map<String, Codec.Head> prefetchHeads(List<String> ids) throws RocksDBException {
    return untouched(ids, Codec::decodeHead);
  }

  /** The {@link Codec.Head} of {@code id} as this group sees it (its own writes first), or {@code null}. */
  Codec.Head head(String id, Map<String, Codec.Head> prefetched) throws RocksDBException {
    Timer t = known(id);
    if (t != null) {
      return t == ABSENT ? null : Codec.Head.of(t);
    }
    if (prefetched.containsKey(id)) {
      return prefetched.get(id);
    }
    guard.check();
    byte[] v = db.db.get(db.timers, Keys.id(id));
    return v == null ? null : Codec.decodeHead(id, v);
  }

  /**
   * Writes {@code t} (payload included) in place of the stored timer whose due time is {@code oldDue}; its record is
   * {@code record} when given (already encoded, e.g. by {@link Codec#rearmed}), else encoded here.
   */
  void putTimer(Timer t, byte[] record, Codec.Head old) throws RocksDBException {
    holdBackFor(t.id());
    if (old.nextDueAt() != t.nextDueAt()) {
      deleteDue(Keys.due(old.nextDueAt(), Keys.id(t.id())));
    }
    recount(old.topic(), old.paused(), t.topic(), t.paused());
    put(t, record);
  }

  /** Removes the stored timer of {@code old}. */
  void deleteTimer(Codec.Head old) throws RocksDBException {
    counted(old.topic(), old.paused(), -1);
    deleteTimer(old.id(), old.nextDueAt());
  }

  /** One timer more ({@code d = 1}) or less ({@code -1}) of {@code topic}, paused or not. */
  private void counted(String topic, boolean paused, int d) {
    opTopicDelta.computeIfAbsent(topic, k -> new long[1])[0] += d;
    if (paused) {
      pausedCount += d;
    }
  }

  /** A stored timer's topic and pause state change from the old ones to the new ones. */
  private void recount(String oldTopic, boolean oldPaused, String topic, boolean paused) {
    if (!oldTopic.equals(topic)) {
      counted(oldTopic, false, -1);
      counted(topic, false, 1);
    }
    if (oldPaused != paused) {
      pausedCount += paused ? 1 : -1;
    }
  }

  /** Removes the stored timer {@code id}, whose due time is {@code due}; the caller counts it out. */
  private void deleteTimer(String idText, long due) throws RocksDBException {
    holdBackFor(idText);
    byte[] id = Keys.id(idText);
    batch.delete(db.timers, id);
    deleteDue(Keys.due(due, id));
    opOverlay.put(idText, ABSENT);
    timerCount--;
  }

  /**
   * Writes {@code t} (payload included) replacing {@code old} (or nothing: a new timer, counted), keeping the due
   * index in step.
   */
  void putTimer(Timer t, Timer old) throws RocksDBException {
    holdBackFor(t.id());
    if (old == null) {
      timerCount++;
      counted(t.topic(), t.paused(), 1);
    } else {
      recount(old.topic(), old.paused(), t.topic(), t.paused());
    }
    if (old != null && old.nextDueAt() != t.nextDueAt()) {
      deleteDue(Keys.due(old.nextDueAt(), Keys.id(t.id())));
    }
    put(t);
  }

  private void put(Timer t) throws RocksDBException {
    put(t, null);
  }

  private void put(Timer t, byte[] record) throws RocksDBException {
    byte[] id = Keys.id(t.id());
    batch.put(db.timers, id, record != null ? record : Codec.encodeTimer(t));
    byte[] dueKey = Keys.due(t.nextDueAt(), id);
    byte[] topic = t.topic().getBytes(StandardCharsets.UTF_8);
    if (deferDue) {
      deferredDue.add(dueKey, topic);
    } else {
      batch.put(db.due, dueKey, topic);
    }
    opOverlay.put(t.id(), t);
  }

  void deleteTimer(Timer old) throws RocksDBException {
    counted(old.topic(), old.paused(), -1);
    deleteTimer(old.id(), old.nextDueAt());
  }

  /** Appends a firing with the next seq; returns it with its seq. */
  Firing appendFiring(Firing f) throws RocksDBException {
    Firing withSeq = f.withSeq(++lastSeq);
    batch.put(db.firings, Keys.seq(withSeq.seq()), Codec.encodeFiring(withSeq));
    return withSeq;
  }

  /** The delivery {@code seq} as this group sees it: its own writes first, then the database; or {@code null}. */
  Delivery currentDelivery(long seq) throws RocksDBException {
    Delivery d = dOpOverlay.get(seq);
    if (d == null) {
      d = dOverlay.get(seq);
    }
    if (d != null) {
      return d == NO_DELIVERY ? null : d;
    }
    guard.check();
    byte[] v = db.db.get(db.meta, Keys.delivery(seq));
    return v == null ? null : DeliveryJson.decode(v);
  }

  /** Writes {@code d} replacing {@code old} (or nothing), keeping the state index and counts in step. */
  void putDelivery(Delivery d, Delivery old) throws RocksDBException {
    counts();
    if (old != null) {
      batch.delete(db.meta, Keys.deliveryState(old.state().ordinal(), old.seq()));
      dCounts[old.state().ordinal()]--;
    }
    batch.put(db.meta, Keys.delivery(d.seq()), DeliveryJson.encode(d));
    batch.put(db.meta, Keys.deliveryState(d.state().ordinal(), d.seq()), Keys.deliveryStateValue(d.updatedAt()));
    dCounts[d.state().ordinal()]++;
    dOpOverlay.put(d.seq(), d);
  }

  void deleteDelivery(Delivery old) throws RocksDBException {
    deleteDelivery(old.seq(), old.state());
  }

  /** Deletes delivery {@code seq}, stored in {@code state} as this group sees it (its record and index entry). */
  void deleteDelivery(long seq, DeliveryState state) throws RocksDBException {
    counts();
    batch.delete(db.meta, Keys.delivery(seq));
    batch.delete(db.meta, Keys.deliveryState(state.ordinal(), seq));
    dCounts[state.ordinal()]--;
    dOpOverlay.put(seq, NO_DELIVERY);
  }

  /** Whether this group changed delivery {@code seq} (then the database does not show it as the group sees it). */
  boolean deliveryChanged(long seq) {
    return dOpOverlay.containsKey(seq) || dOverlay.containsKey(seq);
  }

  /**
   * Gives an older state index entry of delivery {@code d} (stored as it is, finished) its {@code updatedAt}, so the
   * next check of its age needs no read of the record.
   */
  void indexUpdatedAt(Delivery d) throws RocksDBException {
    batch.put(db.meta, Keys.deliveryState(d.state().ordinal(), d.seq()), Keys.deliveryStateValue(d.updatedAt()));
  }

  /** The per-state delivery counts as of this group's writes. */
  long[] counts() throws RocksDBException {
    if (dCounts == null) {
      guard.check();
      int n = DeliveryState.values().length;
      dCountsStored = new long[n];
      for (int i = 0; i < n; i++) {
        byte[] v = db.db.get(db.meta, Keys.deliveryCount(i));
        dCountsStored[i] = v == null ? 0 : Keys.getLong(v, 0);
      }
      dCounts = dCountsStored.clone();
    }
    return dCounts;
  }

  /** After this group's {@code db.write} succeeded: hands its final version of each timer it wrote to {@code r}. */
  void written(RecentTimers r) {
    r.groupWritten(overlay, ABSENT);
  }

  /** Adds the counter to the batch if the group assigned seqs; call once, after the last operation. */
  void finish() throws RocksDBException {
    if (dCounts != null) {
      for (int i = 0; i < dCounts.length; i++) {
        if (dCounts[i] != dCountsStored[i]) {
          batch.put(db.meta, Keys.deliveryCount(i), Keys.u64(dCounts[i]));
        }
      }
    }
    if (lastSeq != startLastSeq) {
      batch.put(db.meta, Keys.LAST_SEQ, Keys.u64(lastSeq));
    }
    if (timerCount != startTimerCount) {
      batch.put(db.meta, Keys.TIMER_COUNT, Keys.u64(timerCount));
    }
    if (pausedCount != startPausedCount) {
      batch.put(db.meta, Keys.PAUSED_COUNT, Keys.u64(pausedCount));
    }
    for (Map.Entry<String, long[]> e : topicDelta.entrySet()) {
      long d = e.getValue()[0];
      if (d == 0) {
        continue;
      }
      String topic = e.getKey();
      byte[] key = Keys.topicCount(topic);
      Long known = knownTopicCounts.get(topic);
      long was;
      if (known != null) {
        was = known;
      } else {
        guard.check();
        byte[] v = db.db.get(db.meta, key);
        was = v == null ? 0 : Keys.getLong(v, 0);
      }
      long now = Math.max(0, was + d);
      if (now == 0) {
        batch.delete(db.meta, key);
      } else {
        batch.put(db.meta, key, Keys.u64(now));
      }
      writtenTopicCounts.put(topic, now);
    }
  }

  @Override
  public void close() {
    batch.close();
  }
}
