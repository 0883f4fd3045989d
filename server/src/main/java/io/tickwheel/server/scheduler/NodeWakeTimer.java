package io.tickwheel.server.scheduler;

import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The one event-loop timer of an owner context that wakes every {@link WakeUp} on it: a node serves each partition it
 * owns with its own scheduler on the node's one owner context, and their fire loops due at one moment turn in one
 * event-loop task (so their firing records go to the store together, one round trip for the turn where the store
 * gathers them), with one timer set on the event loop instead of one per partition.
 *
 * <p>Alarms are kept by wake-up time (epoch µs, on the injected clock, read through {@link FineClock}); the event-loop
 * timer is set to the earliest. When it goes off, every alarm it was set for and every alarm due by then runs, in
 * wake-up time order (alarms of one time in the order they were set), in that one task; then it is set to the next. A cancelled alarm never runs and is dropped when
 * it comes first. One per owner context and clock ({@link #of}).
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class NodeWakeTimer {

  private static final System.Logger LOG = System.getLogger(NodeWakeTimer.class.getName());
  /** The context-local key of the timers by clock. */
  private static final String KEY = NodeWakeTimer.class.getName();

  /** One wake-up waiting. */
  static final class Alarm {
    final long atUs;
    /** Set order, among alarms of one time. */
    private final long seq;
    private final Runnable run;
    private boolean cancelled;

    private Alarm(long atUs, long seq, Runnable run) {
      this.atUs = atUs;
      this.seq = seq;
      this.run = run;
    }

    /** It will not run. */
    void cancel() {
      cancelled = true;
    }
  }

  private final Context owner;
  private final LongSupplier clock;
  private final PriorityQueue<Alarm> alarms = new PriorityQueue<>((a, b) ->
      a.atUs != b.atUs ? Long.compare(a.atUs, b.atUs) : Long.compare(a.seq, b.seq));
  private long alarmsSet;
  private ScheduledFuture<?> timer;
  /** When the event-loop timer set goes off, epoch µs, or {@code Long.MAX_VALUE}. */
  private long timerAtUs = Long.MAX_VALUE;
  /** Counts the event-loop timers set; one that runs after it was replaced sees another number and does nothing. */
  private long timerGen;

  private NodeWakeTimer(Context owner, LongSupplier clock) {
    this.owner = owner;
    this.clock = clock;
  }

  /** The timer of {@code owner} for {@code clock} (created on first use); call on {@code owner}. */
  @SuppressWarnings("unchecked")
  static NodeWakeTimer of(Context owner, LongSupplier clock) {
    Map<LongSupplier, NodeWakeTimer> byClock = (Map<LongSupplier, NodeWakeTimer>) owner.get(KEY);
    if (byClock == null) {
      byClock = new IdentityHashMap<>();
      owner.put(KEY, byClock);
    }
    return byClock.computeIfAbsent(clock, c -> new NodeWakeTimer(owner, c));
  }

  /**
   * Runs {@code run} on the owner context at {@code atUs} (epoch µs), at the earliest {@code minDelayUs} from now,
   * unless the returned alarm is cancelled first.
   */
  Alarm schedule(long atUs, long minDelayUs, Runnable run) {
    Alarm a = new Alarm(atUs, alarmsSet++, run);
    alarms.add(a);
    arm(minDelayUs);
    return a;
  }

  /** How many alarms wait (cancelled ones not yet dropped included); for tests. */
  int waiting() {
    return alarms.size();
  }

  private void arm(long minDelayUs) {
    while (!alarms.isEmpty() && alarms.peek().cancelled) {
      alarms.poll();
    }
    if (alarms.isEmpty()) {
      cancelTimer();
      return;
    }
    long head = alarms.peek().atUs;
    if (timer != null && timerAtUs <= head) {
      return;                     // it goes off first and sets itself again
    }
    cancelTimer();
    long delayUs = Math.max(minDelayUs, head - FineClock.micros(clock));
    timerAtUs = head;
    long gen = ++timerGen;
    timer = ((ContextInternal) owner).nettyEventLoop().schedule(() -> owner.runOnContext(v -> fire(gen)),
        delayUs, TimeUnit.MICROSECONDS);
  }

  private void fire(long gen) {
    if (gen != timerGen || timer == null) {
      return;                     // replaced by an earlier one after it had started
    }
    long limit = Math.max(timerAtUs, FineClock.micros(clock));
    timer = null;
    timerAtUs = Long.MAX_VALUE;
    List<Alarm> due = new ArrayList<>();
    while (!alarms.isEmpty() && alarms.peek().atUs <= limit) {
      Alarm a = alarms.poll();
      if (!a.cancelled) {
        due.add(a);
      }
    }
    for (Alarm a : due) {
      if (a.cancelled) {
        continue;                 // cancelled by an alarm that ran before it
      }
      a.cancelled = true;
      try {
        a.run.run();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "a wake-up failed", e);
      }
    }
    arm(WakeUp.MIN_DELAY_US);
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
      timerGen++;
      timerAtUs = Long.MAX_VALUE;
    }
  }
}
