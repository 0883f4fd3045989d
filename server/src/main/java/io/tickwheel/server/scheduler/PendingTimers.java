package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.DueIndex;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.core.wheel.TimerWheel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The timers waiting to fire, the state the write path ({@link Scheduler}) and the fire path ({@link FireLoop})
 * share: each is either <em>armed</em> (in the wheel, keyed by id) or <em>held</em> (out of the wheel, its id
 * locked by the one operation working on it: a write, or the recording of its firing). Never both.
 *
 * <p>An armed timer is in one of three places: the wheel (waiting for its due time); the <em>paused</em> set (a
 * paused timer, out of the wheel until resumed, see {@link io.tickwheel.core.model.Schedule#pause}); or
 * <em>parked</em> (it came due while its topic was paused: held back, unchanged, until the topic resumes and
 * {@link #unpark} hands it back). All three count as pending, per topic too ({@link #topicCount}).
 *
 * <p><b>Two tiers.</b> With a window ({@link #windowed()}: a store that is a {@link DueIndex} and does not keep its
 * timers on the heap), only timers due before the <em>bound</em> are in memory; a timer due at or after it is
 * <em>far</em>: kept by the store alone and counted ({@link #farCount()}), until the {@link WindowLoader} moves the bound
 * past its due time and loads it. {@link #arm} of a timer due at or after the bound counts it far instead of keeping it;
 * {@link #take} of an id not in memory reads the store. Every stored timer is in memory (armed or held) or far, never
 * both: the loader skips an id in memory, and an id held or released while its page was being read (that write has
 * placed it already).
 *
 * <p>The wheel holds one payload-less copy ({@link Timer#withoutPayload()}) of every armed timer, encoded into a few
 * bytes beside its id ({@link ResidentCodec}: no per-timer object; a timer with calendar fields or a callback is
 * kept as an object), and hands out, and {@link #armed} and {@link #disarm} return, fresh decoded copies; with a store
 * that keeps its timers on the heap ({@link TimerStore#keepsTimersOnHeap()}) it holds the timer itself, the very
 * object the store keeps (so a pending timer costs one object, not two). The wheel's copy is never the source of a
 * payload.
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class PendingTimers {

  private final TimerWheel<Timer> wheel;
  private final IdLocks locks;
  private final boolean heapStore;
  private final HashMap<String, Timer> paused = new HashMap<>();
  private final HashMap<String, Timer> parked = new HashMap<>();
  private final HashMap<String, LinkedHashMap<String, Timer>> parkedByTopic = new HashMap<>();
  private final TopicCounts topics = new TopicCounts();
  private LongConsumer onArmed = dueAt -> { };
  /** The store, for {@link #take} and {@link #stored} of far timers; {@code null} without a window. */
  private final TimerStore store;
  /** Timers due at or after it are far; {@code Long.MAX_VALUE} without a window. */
  private long bound = Long.MAX_VALUE;
  /** Far timers: stored, not in memory. */
  private long farCount;
  /** Of the far timers, the paused ones. */
  private long farPaused;
  /** Ids held or released while the loader's page read is in flight; {@code null} when none is. */
  private HashSet<String> touchedWhileReading;

  /**
   * @param startMs   the wheel's initial time, epoch ms
   * @param heapStore {@link TimerStore#keepsTimersOnHeap()} of the store
   */
  PendingTimers(Vertx vertx, long tickMs, long startMs, boolean heapStore) {
    this(vertx, tickMs, startMs, heapStore, null);
  }

  /** @param windowStore the store when timers beyond a window stay in it ({@link #windowed()}), else {@code null} */
  PendingTimers(Vertx vertx, long tickMs, long startMs, boolean heapStore, TimerStore windowStore) {
    // no room up front: a node holds a wheel per partition it owns, most of them small or empty
    this.wheel = new TimerWheel<>(tickMs, startMs, TimerWheel.DEFAULT_SLOT_BITS_PER_LEVEL, 0,
        heapStore ? null : new ResidentCodec());
    this.locks = new IdLocks(vertx);
    this.heapStore = heapStore;
    this.store = windowStore;
  }

  // ------------------------------------------------------------------ the far tier

  /** Whether timers beyond the bound stay in the store (see "Two tiers"). */
  boolean windowed() {
    return store != null;
  }

  /** Timers due at or after this, epoch ms, are far ({@code Long.MAX_VALUE}: none). */
  long bound() {
    return bound;
  }

  /** Moves the bound (the loader, before it reads the timers between the old bound and this one). */
  void bound(long b) {
    this.bound = b;
  }

  /** Far timers: stored, not in memory. */
  long farCount() {
    return farCount;
  }

  /** Sets the far count (recovery: the store's count minus the timers loaded). */
  void farCount(long n) {
    this.farCount = n;
  }

  /** Of the far timers, the paused ones. */
  long farPausedCount() {
    return farPaused;
  }

  /** Sets the far paused count (recovery: the store's paused count minus the paused timers loaded). */
  void farPausedCount(long n) {
    this.farPaused = n;
  }

  /** The loader's page read starts: ids held or released from now on are left to their writes. */
  void readStarted() {
    touchedWhileReading = new HashSet<>();
  }

  /** The loader's page was placed. */
  void readDone() {
    touchedWhileReading = null;
  }

  /**
   * Places far timer {@code t} read by the loader (due before the bound now) in memory, unless {@code id} is in memory
   * already or was held or released while its page was read (its write placed it); returns whether it was placed.
   */
  boolean loadFar(Timer t) {
    String id = t.id();
    if (exists(id) || (touchedWhileReading != null && touchedWhileReading.contains(id))) {
      return false;
    }
    farCount--;
    if (t.paused()) {
      farPaused--;
    }
    Timer lean = t.withoutPayload();
    if (lean.paused()) {
      paused.put(id, lean);
    } else {
      wheel.schedule(id, lean.nextDueAt(), lean);
      onArmed.accept(lean.nextDueAt());
    }
    topics.add(lean.topic());
    return true;
  }

  /**
   * Held {@code id}'s current state, taken out of the pending timers (a write replaces it): its armed copy
   * ({@link #disarm}), or, windowed, its stored state when it is far (then no longer counted far), or {@code null}.
   * Fails with the store's failure when the far state could not be read.
   */
  Future<Timer> take(String id) {
    Timer t = disarm(id);
    if (t != null || store == null) {
      return Future.succeededFuture(t);
    }
    return store.get(id).map(s -> {
      if (s != null) {
        farCount--;
        if (s.paused()) {
          farPaused--;
        }
      }
      return s;
    });
  }

  /** Whether {@code id} may be pending: {@link #exists} in memory, or windowed (it may be far). */
  boolean mayExist(String id) {
    return store != null || exists(id);
  }

  /** Called with the due time (epoch ms) of every timer {@link #arm}ed: the fire loop's wake-up hook. */
  void onArmed(LongConsumer hook) {
    this.onArmed = hook;
  }

  /** Armed (in the wheel, paused or parked), held and far timers. */
  long size() {
    return wheel.size() + paused.size() + parked.size() + locks.size() + farCount;
  }

  /** Whether {@code id} is armed (in the wheel, paused or parked) or held. */
  boolean exists(String id) {
    return locks.isHeld(id) || wheel.contains(id) || (!paused.isEmpty() && paused.containsKey(id))
        || (!parked.isEmpty() && parked.containsKey(id));
  }

  /** Paused timers (out of the wheel until resumed). */
  int pausedCount() {
    return paused.size();
  }

  /** Timers held back because their topic is paused. */
  int parkedCount() {
    return parked.size();
  }

  /** Armed, paused and parked timers of {@code topic} (held ones are not counted). */
  long topicCount(String topic) {
    return topics.of(topic);
  }

  /** The topics that have armed, paused or parked timers (unordered copy). */
  List<String> topics() {
    return topics.topics();
  }

  /** A fresh server-generated id that is neither armed nor held. */
  String freshId() {
    String id = Ids.random();
    while (exists(id)) {
      id = Ids.random();
    }
    return id;
  }

  // ------------------------------------------------------------------ the wheel

  /** The armed copy of {@code id} (payload-less unless the store is on the heap), paused or parked, or {@code null}. */
  Timer armed(String id) {
    Timer t = wheel.get(id);
    if (t == null && !paused.isEmpty()) {
      t = paused.get(id);
    }
    if (t == null && !parked.isEmpty()) {
      t = parked.get(id);
    }
    return t;
  }

  /**
   * Arms {@code t} at its {@code nextDueAt} (replacing an armed copy) and tells the fire loop; a paused timer goes to
   * the paused set instead.
   */
  void arm(Timer t) {
    long due = load(t);
    if (!t.paused() && due < bound) {
      onArmed.accept(due);
    }
  }

  /**
   * Arms held timer {@code t} again after its firing: the fire loop's re-arm of a periodic or cron timer. It is in no
   * set (the wheel handed it out and its id has been held since, so no write armed it), so no copy is looked for and
   * replaced (that look-up was a sixth of the event loop's time when 300,000 cron timers fired at once). Tells the
   * fire loop. A paused timer goes to the paused set.
   */
  void rearm(Timer t) {
    if (t.nextDueAt() >= bound) {
      farCount++;             // stored with its next state already: far until the loader reaches it
      if (t.paused()) {
        farPaused++;
      }
      return;
    }
    Timer lean = heapStore ? t : t.withoutPayload();
    if (lean.paused()) {
      paused.put(lean.id(), lean);
      topics.add(lean.topic());
      return;
    }
    wheel.schedule(lean.id(), lean.nextDueAt(), lean);
    topics.add(lean.topic());
    onArmed.accept(lean.nextDueAt());
  }

  /**
   * Arms {@code t} without telling the fire loop (recovery, before it runs; a paused timer goes to the paused set,
   * replacing an armed copy), or counts it far when it is due at or after the bound; returns its due time.
   */
  long load(Timer t) {
    Timer lean = heapStore ? t : t.withoutPayload();
    if (!paused.isEmpty() || !parked.isEmpty() || wheel.contains(lean.id())) {
      disarm(lean.id());
    }
    if (lean.nextDueAt() >= bound) {
      farCount++;
      if (lean.paused()) {
        farPaused++;
      }
      return lean.nextDueAt();
    }
    if (lean.paused()) {
      paused.put(lean.id(), lean);
    } else {
      wheel.schedule(lean.id(), lean.nextDueAt(), lean);
    }
    topics.add(lean.topic());
    return lean.nextDueAt();
  }

  /** Takes {@code id} out of the wheel, the paused set or the parked ones; returns that copy, or {@code null}. */
  Timer disarm(String id) {
    Timer old = wheel.get(id);
    if (old != null) {
      wheel.cancel(id);
    } else if (!paused.isEmpty() && (old = paused.remove(id)) != null) {
      // taken from the paused set
    } else if (!parked.isEmpty() && (old = parked.remove(id)) != null) {
      Map<String, Timer> ofTopic = parkedByTopic.get(old.topic());
      ofTopic.remove(id);
      if (ofTopic.isEmpty()) {
        parkedByTopic.remove(old.topic());
      }
    }
    if (old != null) {
      topics.remove(old.topic());
    }
    return old;
  }

  /**
   * Holds back a timer the wheel handed out (so out of the wheel, not held) because its topic is paused: it stays
   * pending, unchanged, until {@link #unpark}.
   */
  void park(Timer t) {
    parked.put(t.id(), t);
    parkedByTopic.computeIfAbsent(t.topic(), k -> new LinkedHashMap<>()).put(t.id(), t);
    topics.add(t.topic());
  }

  /**
   * Takes at most {@code limit} parked timers of {@code topic} out (the caller arms them again, in the order they were
   * parked); an empty list when none is left.
   */
  List<Timer> unpark(String topic, int limit) {
    LinkedHashMap<String, Timer> ofTopic = parkedByTopic.get(topic);
    if (ofTopic == null) {
      return List.of();
    }
    List<Timer> out = new ArrayList<>(Math.min(limit, ofTopic.size()));
    Iterator<Timer> it = ofTopic.values().iterator();
    while (out.size() < limit && it.hasNext()) {
      Timer t = it.next();
      it.remove();
      parked.remove(t.id());
      topics.remove(t.topic());
      out.add(t);
    }
    if (ofTopic.isEmpty()) {
      parkedByTopic.remove(topic);
    }
    return out;
  }

  /** Re-files a handed-out timer's copy at {@code dueAt}, ms, without telling the fire loop. */
  void refile(String id, long dueAt, Timer copy) {
    wheel.schedule(id, dueAt, copy);
    topics.add(copy.topic());
  }

  /**
   * {@link TimerWheel#advance}: hands out at most {@code limit} timers due at {@code nowMs}; each leaves the pending
   * timers (the handler holds or parks it, which counts it again).
   */
  int advance(long nowMs, ExpiryHandler<Timer> handler, int limit) {
    return wheel.advance(nowMs, (id, dueAt, t) -> {
      topics.remove(t.topic());
      handler.onExpiry(id, dueAt, t);
    }, limit);
  }

  /** {@link TimerWheel#nextExpiryAtMs()}. */
  long nextExpiryAtMs() {
    return wheel.nextExpiryAtMs();
  }

  /** A copy of the wheel's shape. */
  WheelSnapshot snapshot() {
    List<WheelSnapshot.Level> levels = new ArrayList<>(wheel.levels());
    for (int l = 0; l < wheel.levels(); l++) {
      int[] occ = new int[wheel.slots(l)];
      int count = wheel.occupancy(l, occ);
      levels.add(new WheelSnapshot.Level(l, occ.length, wheel.spanMs(l), wheel.cursor(l), count, occ));
    }
    return new WheelSnapshot(wheel.tickMs(), wheel.currentTimeMs(), levels);
  }

  // ------------------------------------------------------------------ holds

  /** Holds {@code id} if it is free; returns whether it was taken. */
  boolean tryHold(String id) {
    touched(id);
    return locks.tryLock(id);
  }

  private void touched(String id) {
    if (touchedWhileReading != null) {
      touchedWhileReading.add(id);
    }
  }

  /** {@link IdLocks#lock}: {@code true} once held, {@code false} after {@code timeoutMs} without it. */
  Future<Boolean> hold(String id, long timeoutMs) {
    touched(id);
    return locks.lock(id, timeoutMs).onSuccess(held -> touched(id));
  }

  /** Releases {@code id} to its next waiter, or frees it. */
  void release(String id) {
    touched(id);
    locks.unlock(id);
  }

  /**
   * Held {@code id}'s holder waits for the store to answer at all (a read-back after a write that may have applied
   * found the store down): writes of it waiting now, and those made until it is released, get {@code false} at once
   * ({@link IdLocks#stall}) instead of after their lock timeout.
   */
  void stall(String id) {
    locks.stall(id);
  }
}
