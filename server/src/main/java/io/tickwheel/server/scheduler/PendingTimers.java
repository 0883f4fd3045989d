package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerStore;
import io.tickwheel.core.wheel.ExpiryHandler;
import io.tickwheel.core.wheel.TimerWheel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The timers waiting to fire, the state the write path ({@link Scheduler}) and the fire path ({@link FireLoop})
 * share: each is either <em>armed</em> (in the wheel, keyed by id) or <em>held</em> (out of the wheel, its id
 * locked by the one operation working on it: a write, or the recording of its firing). Never both.
 *
 * <p>The wheel holds one payload-less copy ({@link Timer#withoutPayload()}) of every armed timer; with a store that
 * keeps its timers on the heap ({@link TimerStore#keepsTimersOnHeap()}) it holds the timer itself, the very object
 * the store keeps (so a pending timer costs one object, not two). The wheel's copy is never the source of a payload.
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class PendingTimers {

  private final TimerWheel<Timer> wheel;
  private final IdLocks locks;
  private final boolean heapStore;
  private LongConsumer onArmed = dueAt -> { };

  /**
   * @param startMs   the wheel's initial time, epoch ms
   * @param heapStore {@link TimerStore#keepsTimersOnHeap()} of the store
   */
  PendingTimers(Vertx vertx, long tickMs, long startMs, boolean heapStore) {
    this.wheel = new TimerWheel<>(tickMs, startMs);
    this.locks = new IdLocks(vertx);
    this.heapStore = heapStore;
  }

  /** Called with the due time (epoch ms) of every timer {@link #arm}ed: the fire loop's wake-up hook. */
  void onArmed(LongConsumer hook) {
    this.onArmed = hook;
  }

  /** Armed plus held timers. */
  int size() {
    return wheel.size() + locks.size();
  }

  /** Whether {@code id} is armed or held. */
  boolean exists(String id) {
    return locks.isHeld(id) || wheel.contains(id);
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

  /** The armed copy of {@code id} (payload-less unless the store is on the heap), or {@code null}. */
  Timer armed(String id) {
    return wheel.get(id);
  }

  /** Arms {@code t} at its {@code nextDueAt} (replacing an armed copy) and tells the fire loop. */
  void arm(Timer t) {
    long due = load(t);
    onArmed.accept(due);
  }

  /** Arms {@code t} without telling the fire loop (recovery, before it runs); returns its due time. */
  long load(Timer t) {
    Timer lean = heapStore ? t : t.withoutPayload();
    wheel.schedule(lean.id(), lean.nextDueAt(), lean);
    return lean.nextDueAt();
  }

  /** Takes {@code id} out of the wheel; returns its armed copy, or {@code null} if it was not armed. */
  Timer disarm(String id) {
    Timer old = wheel.get(id);
    if (old != null) {
      wheel.cancel(id);
    }
    return old;
  }

  /** Re-files an armed timer's copy at {@code dueAt}, ms, without telling the fire loop. */
  void refile(String id, long dueAt, Timer copy) {
    wheel.schedule(id, dueAt, copy);
  }

  /** {@link TimerWheel#advance}: hands out at most {@code limit} timers due at {@code nowMs}. */
  int advance(long nowMs, ExpiryHandler<Timer> handler, int limit) {
    return wheel.advance(nowMs, handler, limit);
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
    return locks.tryLock(id);
  }

  /** {@link IdLocks#lock}: {@code true} once held, {@code false} after {@code timeoutMs} without it. */
  Future<Boolean> hold(String id, long timeoutMs) {
    return locks.lock(id, timeoutMs);
  }

  /** Releases {@code id} to its next waiter, or frees it. */
  void release(String id) {
    locks.unlock(id);
  }
}
