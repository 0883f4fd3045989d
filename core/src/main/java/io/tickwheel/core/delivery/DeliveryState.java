package io.tickwheel.core.delivery;

/** Where a callback delivery stands. Its wire name is the lower-case name. */
public enum DeliveryState {
  /** Waiting for its next attempt (the first included). */
  PENDING,
  /** A receiver answered 2xx. */
  SUCCEEDED,
  /** Given up: 410, a blocked address, or the round's last attempt failed. {@code POST …/retry} re-queues it. */
  DEAD;

  /** The wire name: {@code pending}, {@code succeeded}, {@code dead}. */
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The state of a wire name, or {@code null} for anything else. */
  public static DeliveryState ofWire(String s) {
    for (DeliveryState d : values()) {
      if (d.wire().equals(s)) {
        return d;
      }
    }
    return null;
  }
}
