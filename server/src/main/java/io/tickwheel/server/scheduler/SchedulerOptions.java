package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Limits;
import io.tickwheel.core.model.Schedule;
import io.tickwheel.core.store.Retention;

/**
 * The scheduler's settings. Validated when built: a value out of range throws {@link IllegalArgumentException}
 * naming the field and the value.
 *
 * @param tickMs             wheel tick, ms, {@code >= 1}
 * @param maxPending         most pending timers, {@code >= 1}; creates beyond answer {@link Refusal.CapacityExceeded}
 * @param misfireThresholdMs lateness beyond which a fixed-rate due time is missed (see {@link Schedule#onDue}),
 *                           ms, {@code >= 0}
 * @param turnLimit          most timers handed out (and recorded in one store call) per turn, {@code >= 1}
 * @param retention          firing-log retention
 * @param trimIntervalMs     how often the firing log is trimmed, ms, {@code >= 1}
 * @param recoveryBatch      timers per batch when loading the store at start, {@code >= 1}
 * @param lockTimeoutMs      how long a write waits for a busy id before answering {@link Refusal.Busy}, ms, {@code >= 1}
 * @param windowMs           with a store that is a {@link io.tickwheel.core.store.DueIndex} and keeps nothing on the
 *                           heap: how far ahead of now every pending timer is in memory, ms; later ones stay in the
 *                           store until the window reaches them ({@link WindowLoader}); {@link #DEFAULT_WINDOW_MS} in
 *                           {@link #defaults}; {@code 0}: no window, every pending timer in memory. {@code 0} or
 *                           {@code >= 1000}. No effect with a store that keeps its timers on the heap.
 *
 * <p>The server sets the window from its {@code --window-ms} flag ({@link #DEFAULT_WINDOW_MS} by default). With
 * {@code windowMs == 0} the scheduler keeps every pending timer in memory, recovers by loading the whole store, and
 * reads nothing from the store before a create. With a window, the counts it reports cover both tiers: {@link Scheduler#pending()},
 * {@link Scheduler#pausedTimers()} and the per-topic counts (from the store's, {@link
 * io.tickwheel.core.store.DueIndex#topicCounts}).
 */
public record SchedulerOptions(long tickMs, long maxPending, long misfireThresholdMs, int turnLimit, Retention retention,
    long trimIntervalMs, int recoveryBatch, long lockTimeoutMs, long windowMs) {

  /**
   * Default {@link #maxPending}: {@link Limits#DEFAULT_MAX_PENDING}, a billion timers, for the default window, where
   * timers due beyond it are on disk. With a store that keeps every timer on the heap give a cap the heap holds (the
   * server gives {@link Limits#DEFAULT_MAX_PENDING_IN_MEMORY}).
   */
  public static final long DEFAULT_MAX_PENDING = Limits.DEFAULT_MAX_PENDING;
  /** Default {@link #turnLimit}. */
  public static final int DEFAULT_TURN_LIMIT = 10_000;
  /** Default {@link #trimIntervalMs}: 10 s. */
  public static final long DEFAULT_TRIM_INTERVAL_MS = 10_000;
  /** Default {@link #recoveryBatch}. */
  public static final int DEFAULT_RECOVERY_BATCH = 10_000;
  /** Default {@link #lockTimeoutMs}: 10 s. */
  public static final long DEFAULT_LOCK_TIMEOUT_MS = 10_000;

  /**
   * Default {@link #windowMs}: ten minutes. Heartbeat timers (a countdown of seconds to minutes, touched before it
   * runs out) never leave memory. A restart reads the timers due within the next ten seconds before it serves, and
   * the rest of the window (up to eleven minutes: the bound moves in steps of a tenth of the window) while it serves,
   * never the whole store. Each one-minute step is read from the store in bounded pages a full window before those
   * timers come due ({@link WindowLoader}).
   */
  public static final long DEFAULT_WINDOW_MS = 600_000;

  /** With the default window ({@link #DEFAULT_WINDOW_MS}). */
  public SchedulerOptions(long tickMs, long maxPending, long misfireThresholdMs, int turnLimit, Retention retention,
      long trimIntervalMs, int recoveryBatch, long lockTimeoutMs) {
    this(tickMs, maxPending, misfireThresholdMs, turnLimit, retention, trimIntervalMs, recoveryBatch, lockTimeoutMs,
        DEFAULT_WINDOW_MS);
  }

  public SchedulerOptions {
    atLeast("tickMs", tickMs, 1);
    atLeast("maxPending", maxPending, 1);
    atLeast("misfireThresholdMs", misfireThresholdMs, 0);
    atLeast("turnLimit", turnLimit, 1);
    if (retention == null) {
      throw new IllegalArgumentException("retention must not be null");
    }
    atLeast("trimIntervalMs", trimIntervalMs, 1);
    atLeast("recoveryBatch", recoveryBatch, 1);
    atLeast("lockTimeoutMs", lockTimeoutMs, 1);
    if (windowMs != 0) {
      atLeast("windowMs", windowMs, 1000);
    }
  }

  private static void atLeast(String field, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(field + " must be >= " + min + ", was " + value);
    }
  }

  /**
   * The defaults for a tick: the {@code DEFAULT_*} constants above, {@link Schedule#DEFAULT_MISFIRE_THRESHOLD_MS}
   * and {@link Retention#defaults()}.
   */
  public static SchedulerOptions defaults(long tickMs) {
    return new SchedulerOptions(tickMs, DEFAULT_MAX_PENDING, Schedule.DEFAULT_MISFIRE_THRESHOLD_MS, DEFAULT_TURN_LIMIT,
        Retention.defaults(), DEFAULT_TRIM_INTERVAL_MS, DEFAULT_RECOVERY_BATCH, DEFAULT_LOCK_TIMEOUT_MS);
  }

  public SchedulerOptions withMaxPending(long m) {
    return new SchedulerOptions(tickMs, m, misfireThresholdMs, turnLimit, retention, trimIntervalMs, recoveryBatch,
        lockTimeoutMs, windowMs);
  }

  public SchedulerOptions withTurnLimit(int l) {
    return new SchedulerOptions(tickMs, maxPending, misfireThresholdMs, l, retention, trimIntervalMs, recoveryBatch,
        lockTimeoutMs, windowMs);
  }

  public SchedulerOptions withMisfireThresholdMs(long m) {
    return new SchedulerOptions(tickMs, maxPending, m, turnLimit, retention, trimIntervalMs, recoveryBatch, lockTimeoutMs,
        windowMs);
  }

  public SchedulerOptions withRetention(Retention r, long intervalMs) {
    return new SchedulerOptions(tickMs, maxPending, misfireThresholdMs, turnLimit, r, intervalMs, recoveryBatch,
        lockTimeoutMs, windowMs);
  }

  public SchedulerOptions withWindowMs(long w) {
    return new SchedulerOptions(tickMs, maxPending, misfireThresholdMs, turnLimit, retention, trimIntervalMs,
        recoveryBatch, lockTimeoutMs, w);
  }
}
