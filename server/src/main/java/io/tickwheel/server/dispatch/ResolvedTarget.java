package io.tickwheel.server.dispatch;

import java.net.InetAddress;
import java.util.Objects;

/**
 * What {@link GuardedResolver} found for one delivery attempt: the address to connect to, or why there is none.
 * A domain outcome: the delivery engine turns {@link Outcome#BLOCKED_ADDRESS} into a dead delivery with error
 * {@code blocked_address}, and {@link Outcome#UNRESOLVED} into a failed attempt (retried like any other).
 *
 * @param outcome what happened
 * @param address the address that was checked and must be connected to ({@link Outcome#CONNECT} only), else null
 * @param detail  for a human: which address was blocked and why, or why the name did not resolve; null on CONNECT
 */
public record ResolvedTarget(Outcome outcome, InetAddress address, String detail) {

  /** The kinds of answer. */
  public enum Outcome {
    /** Connect to {@link #address()}: it and every other address of the name passed the policy. */
    CONNECT,
    /** The host is, or resolves to, an address the policy blocks; never retried. */
    BLOCKED_ADDRESS,
    /** The name did not resolve (no such name, no address, the resolver failed or timed out). */
    UNRESOLVED
  }

  public ResolvedTarget {
    Objects.requireNonNull(outcome, "outcome");
    if ((outcome == Outcome.CONNECT) != (address != null)) {
      throw new IllegalArgumentException("an address comes with CONNECT and only with it");
    }
  }

  static ResolvedTarget connect(InetAddress address) {
    return new ResolvedTarget(Outcome.CONNECT, address, null);
  }

  static ResolvedTarget blocked(String why) {
    return new ResolvedTarget(Outcome.BLOCKED_ADDRESS, null, why);
  }

  static ResolvedTarget unresolved(String why) {
    return new ResolvedTarget(Outcome.UNRESOLVED, null, why);
  }

  /** The error code a delivery attempt records: {@code blocked_address}, {@code dns_error}, or null for CONNECT. */
  public String error() {
    return switch (outcome) {
      case CONNECT -> null;
      case BLOCKED_ADDRESS -> "blocked_address";
      case UNRESOLVED -> "dns_error";
    };
  }
}
