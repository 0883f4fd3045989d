package io.tickwheel.server.cluster;

/**
 * A monotonic clock in milliseconds from an arbitrary origin: it never steps when the wall clock is set (NTP step,
 * an operator's {@code date}, a VM resumed), so only differences between its readings mean anything. A node's local
 * lease decisions (when it holds a partition, when it renews, when it must stop) are measured on it; the lease's own
 * times (its {@code expiresAt}) stay the coordinator's clock. A distinct type, not a {@code LongSupplier}, so that a
 * wall clock cannot be passed where a monotonic one is needed.
 *
 * <p>Thread safe.
 */
@FunctionalInterface
public interface MonotonicClock {

  /** {@link System#nanoTime()} in ms. */
  MonotonicClock SYSTEM = () -> System.nanoTime() / 1_000_000L;

  /** Now, ms from this clock's origin; never less than an earlier reading. */
  long millis();
}
