package io.tickwheel.bench.wheel;

/**
 * One timer implementation driven the way that is fairest to it, behind the operations the wheel benchmarks
 * need. Every peer is <em>keyed</em> (a timer is found by its string key, as in tickwheel) except
 * {@link AgronaRawPeer}, the keyless reference, which uses the index {@code i} instead of the key.
 *
 * <p>Timer {@code i} always has key {@code keys[i]} of the benchmark's {@link Fixtures}; both are passed so
 * that keyed peers use the key and the keyless reference the index.
 *
 * <p><b>Threads.</b> Every method is called from one thread (the benchmark thread). Peers that own background
 * threads (Netty, Kafka, the JDK executor) keep them running; what is measured is the caller-side cost.
 */
public interface TimerPeer extends AutoCloseable {

  /** The name used in the benchmark's {@code peer} parameter and in the report. */
  String name();

  /**
   * Schedules timer {@code i} to fire {@code delayMs} after the peer's current time; if timer {@code i} is
   * pending, it is re-armed: its old due time is cancelled and never fires (the heartbeat case).
   */
  void schedule(int i, String key, long delayMs);

  /** Cancels pending timer {@code i}; returns whether it was pending. */
  boolean cancel(int i, String key);

  /** Number of pending timers as the peer reports it (keyed peers: the key map's size). */
  long size();

  /**
   * Schedules {@code n} timers {@code keys[0..n)} due within the next {@link Fixtures#DRAIN_WINDOW_MS}
   * milliseconds (offsets {@link Fixtures#drainOffsetMs}) and makes sure all of them are due, without handing
   * any out, before it returns. Not measured.
   */
  void prepareDue(Fixtures fixtures, int n) throws InterruptedException;

  /** Hands out every timer {@link #prepareDue} made due; returns how many were handed out. Measured. */
  int drainDue() throws InterruptedException;

  /** Stops the peer's threads, if any. */
  @Override
  void close();
}
