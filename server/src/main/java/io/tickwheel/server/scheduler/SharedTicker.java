package io.tickwheel.server.scheduler;

import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * One periodic event-loop timer per owner context and period, running every task registered with it in one
 * event-loop task: a node that owns 1,365 partitions looks at each one's window four times a second with four timer
 * events a second, not 5,460 (an idle node's CPU went mostly to its event loop's timer queue).
 *
 * <p>Each tick runs the tasks in the order they were added. A task added or cancelled while a tick runs takes part
 * from the next tick on (a cancelled one never runs again). The timer is set while a task is registered; the first
 * tick comes a period after it is set. One per owner context and period ({@link #of}).
 *
 * <p><b>Owner context only</b> (not thread safe).
 */
final class SharedTicker {

  private static final System.Logger LOG = System.getLogger(SharedTicker.class.getName());
  /** The context-local key of the tickers by period. */
  private static final String KEY = SharedTicker.class.getName();

  /** One registered task; {@link #cancel} it to stop. */
  final class Task {
    private final Runnable run;
    private boolean cancelled;

    private Task(Runnable run) {
      this.run = run;
    }

    /** It runs no more (from this tick on, if one is running). */
    void cancel() {
      if (!cancelled) {
        cancelled = true;
        remove(this);
      }
    }
  }

  private final ContextInternal owner;
  private final long periodMs;
  private final LinkedHashSet<Task> tasks = new LinkedHashSet<>();
  /** The tasks as an array, for a tick; {@code null} once they changed. */
  private Task[] snapshot;
  private long timerId = -1;

  private SharedTicker(Context owner, long periodMs) {
    this.owner = (ContextInternal) owner;
    this.periodMs = periodMs;
  }

  /** The ticker of {@code owner} for {@code periodMs} (created on first use); call on {@code owner}. */
  @SuppressWarnings("unchecked")
  static SharedTicker of(Context owner, long periodMs) {
    Map<Long, SharedTicker> byPeriod = (Map<Long, SharedTicker>) owner.get(KEY);
    if (byPeriod == null) {
      byPeriod = new HashMap<>();
      owner.put(KEY, byPeriod);
    }
    return byPeriod.computeIfAbsent(periodMs, p -> new SharedTicker(owner, p));
  }

  /** Runs {@code run} at every tick until the returned task is cancelled. */
  Task add(Runnable run) {
    Task t = new Task(run);
    tasks.add(t);
    snapshot = null;
    if (timerId < 0) {
      timerId = owner.setPeriodic(periodMs, id -> tick());
    }
    return t;
  }

  /** How many tasks are registered; for tests. */
  int size() {
    return tasks.size();
  }

  /** Whether the event-loop timer is set; for tests. */
  boolean timerSet() {
    return timerId >= 0;
  }

  private void remove(Task t) {
    if (tasks.remove(t)) {
      snapshot = null;
      if (tasks.isEmpty() && timerId >= 0) {
        owner.owner().cancelTimer(timerId);
        timerId = -1;
      }
    }
  }

  private void tick() {
    Task[] s = snapshot;
    if (s == null) {
      s = tasks.toArray(new Task[0]);
      snapshot = s;
    }
    for (Task t : s) {
      if (t.cancelled) {
        continue;
      }
      try {
        t.run.run();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "a periodic task failed", e);
      }
    }
  }
}
