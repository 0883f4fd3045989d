package io.tickwheel.bench.wheel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ThreadFactory;

/**
 * Holds a peer's timer thread inside a timer task until the measured part of the drain starts.
 *
 * <p>Peers that fire timers on their own thread (Netty, the JDK executor) cannot be told "hand out what is
 * due now": their thread does it when the wall clock gets there. So the drain schedules a gate task due just
 * before the {@code n} timers, waits (unmeasured) until the timer thread is blocked in the gate and all
 * {@code n} timers are due, and the measured part opens the gate and waits until all {@code n} have run.
 */
final class Gate {

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch open = new CountDownLatch(1);

  /** Runs on the timer thread: blocks it until {@link #open}. */
  void hold() {
    entered.countDown();
    try {
      open.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until the timer thread is in the gate and {@code System.nanoTime() >= untilNanos}. */
  void awaitHeldUntil(long untilNanos) throws InterruptedException {
    if (!entered.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the timer thread did not reach the gate within 10 s");
    }
    long left;
    while ((left = untilNanos - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /** Lets the timer thread go and spins until {@code fired} reaches {@code n} (bounded: 60 s). */
  int openAndAwait(AtomicInteger fired, int n) {
    open.countDown();
    return awaitCount(fired, n);
  }

  static int awaitCount(AtomicInteger fired, int n) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int f;
    while ((f = fired.get()) < n) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("only " + f + " of " + n + " timers fired within 60 s");
      }
      Thread.onSpinWait();
    }
    return f;
  }

  /** A factory of daemon threads named {@code name} (peers' timer threads must not keep a JVM alive). */
  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
