package io.tickwheel.server.scheduler;

import io.tickwheel.core.wheel.TimerWheel;
import io.vertx.core.Context;
import java.util.function.LongSupplier;

/**
 * When the {@link FireLoop} turns, once started: a one-shot alarm on the owner's {@link NodeWakeTimer} (one
 * event-loop timer for every scheduler on the owner context, so the partitions of a node due at one moment turn in
 * one task) set to the start of the wheel's next expiry millisecond (capped at {@value #MAX_DELAY_MS} ms, so a
 * timer filed in a coarse level is looked at again soon), moved earlier when an earlier timer is armed; a turn right away (as a new event-loop task) when one
 * is already due. An idle server does not wake up. The wheel's next expiry is the exact due millisecond of its
 * earliest timer (or a lower bound: at worst an empty wake-up), so a timer is handed out at its due millisecond plus
 * the event loop's timer precision, not at the end of its tick. With a {@link FineClock} the sleep is counted in
 * microseconds, to the first microsecond of the due millisecond (a whole number of milliseconds from a "now" part-way
 * through a millisecond woke up to 1 ms late); never before it, so nothing fires early. Not started (unit tests), it
 * never turns.
 *
 * <p><b>Owner context only</b> (not thread safe); time only through the injected clock.
 */
final class WakeUp {

  /** Longest sleep between turns while timers are pending, ms. */
  static final long MAX_DELAY_MS = 1000;
  /** Shortest sleep, µs (a wake-up that found its millisecond not begun yet sleeps at least this long again). */
  static final long MIN_DELAY_US = 20;

  private final Context owner;
  private final LongSupplier clock;
  private final LongSupplier nextExpiryAtMs;
  private final Runnable turn;

  private boolean started;
  private boolean stopped;
  private boolean turnQueued;
  /** The owner's one wake-up timer ({@link NodeWakeTimer}), taken on the first sleep. */
  private NodeWakeTimer shared;
  private NodeWakeTimer.Alarm timer;
  /** When the timer set wakes up, epoch µs. */
  private long wakeAtUs = Long.MAX_VALUE;

  /**
   * @param nextExpiryAtMs the wheel's {@link TimerWheel#nextExpiryAtMs()}
   * @param turn           one turn of the fire loop (runs on the owner context)
   */
  WakeUp(Context owner, LongSupplier clock, LongSupplier nextExpiryAtMs, Runnable turn) {
    this.owner = owner;
    this.clock = clock;
    this.nextExpiryAtMs = nextExpiryAtMs;
    this.turn = turn;
  }

  /** Starts: the first turn runs soon. */
  void start() {
    started = true;
    turnSoon();
  }

  /** Stops for good: no turn runs afterwards. */
  void stop() {
    stopped = true;
    cancelTimer();
  }

  /** Whether turns may run (started and not stopped). */
  boolean running() {
    return started && !stopped;
  }

  /** A timer was armed due at {@code dueAt}, epoch ms: turn now, or wake up earlier, if it is before the wake-up. */
  void armed(long dueAt) {
    if (dueAt * 1_000 < wakeAtUs && running()) {
      if (dueAt <= clock.getAsLong()) {
        turnSoon();
      } else {
        sleep();
      }
    }
  }

  /** Queues one turn as a new event-loop task (at most one queued). */
  void turnSoon() {
    if (turnQueued || !running()) {
      return;
    }
    turnQueued = true;
    owner.runOnContext(v -> {
      turnQueued = false;
      turn.run();
    });
  }

  /** Nothing was due: sleeps until the wheel's next expiry (at most {@value #MAX_DELAY_MS} ms), unless sooner. */
  void sleep() {
    if (!running()) {
      return;
    }
    long next = nextExpiryAtMs.getAsLong();
    if (next == TimerWheel.NO_DEADLINE) {
      return;
    }
    long nowUs = FineClock.micros(clock);
    long delayUs = delayUs(next, nowUs);
    long targetUs = nowUs + delayUs;
    if (timer != null) {
      if (wakeAtUs <= targetUs) {
        return;
      }
      cancelTimer();
    }
    wakeAtUs = targetUs;
    if (shared == null) {
      shared = NodeWakeTimer.of(owner, clock);
    }
    timer = shared.schedule(targetUs, MIN_DELAY_US, () -> {
      timer = null;
      wakeAtUs = Long.MAX_VALUE;
      if (running()) {
        turn.run();
      }
    });
  }

  /**
   * How long to sleep, µs, at {@code nowUs} (epoch µs) for a next expiry at {@code nextMs} (epoch ms): to the first
   * microsecond of that millisecond, at least {@value #MIN_DELAY_US} µs, at most {@value #MAX_DELAY_MS} ms.
   */
  static long delayUs(long nextMs, long nowUs) {
    return Math.max(MIN_DELAY_US, Math.min(nextMs * 1_000 - nowUs, MAX_DELAY_MS * 1_000));
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel();
      timer = null;
      wakeAtUs = Long.MAX_VALUE;
    }
  }
}
