package io.tickwheel.server.scheduler;

import io.tickwheel.core.wheel.TimerWheel;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.function.LongSupplier;

/**
 * When the {@link FireLoop} turns, once started: a one-shot Vert.x timer set to the wheel's next expiry (capped at
 * {@value #MAX_DELAY_MS} ms, so a timer filed in a coarse level is looked at again soon), moved earlier when an
 * earlier timer is armed; a turn right away (as a new event-loop task) when one is already due. An idle server does
 * not wake up. The wheel's next expiry is the exact due millisecond of its earliest timer (or a lower bound: at worst
 * an empty wake-up), so a timer is handed out at its due millisecond plus the event loop's timer precision, not at
 * the end of its tick. Not started (unit tests), it never turns.
 *
 * <p><b>Owner context only</b> (not thread safe); time only through the injected clock.
 */
final class WakeUp {

  /** Longest sleep between turns while timers are pending, ms. */
  static final long MAX_DELAY_MS = 1000;

  private final Vertx vertx;
  private final Context owner;
  private final LongSupplier clock;
  private final LongSupplier nextExpiryAtMs;
  private final Runnable turn;

  private boolean started;
  private boolean stopped;
  private boolean turnQueued;
  private long timerId = -1;
  private long wakeAt = TimerWheel.NO_DEADLINE;

  /**
   * @param nextExpiryAtMs the wheel's {@link TimerWheel#nextExpiryAtMs()}
   * @param turn           one turn of the fire loop (runs on the owner context)
   */
  WakeUp(Vertx vertx, Context owner, LongSupplier clock, LongSupplier nextExpiryAtMs, Runnable turn) {
    this.vertx = vertx;
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
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
      timerId = -1;
    }
  }

  /** Whether turns may run (started and not stopped). */
  boolean running() {
    return started && !stopped;
  }

  /** A timer was armed due at {@code dueAt}, epoch ms: turn now, or wake up earlier, if it is before the wake-up. */
  void armed(long dueAt) {
    if (dueAt < wakeAt && running()) {
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
    long now = clock.getAsLong();
    long delay = Math.max(1, Math.min(next - now, MAX_DELAY_MS));
    long target = now + delay;
    if (timerId >= 0) {
      if (wakeAt <= target) {
        return;
      }
      vertx.cancelTimer(timerId);
    }
    wakeAt = target;
    timerId = vertx.setTimer(delay, id -> {
      timerId = -1;
      wakeAt = TimerWheel.NO_DEADLINE;
      turn.run();
    });
  }
}
