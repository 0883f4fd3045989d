package io.tickwheel.core.model;

/** How a timer repeats. Wire names are those of the contract: {@code once}, {@code fixed-rate}, {@code fixed-delay}. */
public enum Kind {
  /** Fires once at its due time, then ends. */
  ONCE("once"),
  /** The n-th firing is due at {@code start + n·periodMs}, whatever the lateness of earlier firings. */
  FIXED_RATE("fixed-rate"),
  /** The next firing is due {@code periodMs} after the previous firing actually happened. */
  FIXED_DELAY("fixed-delay");

  private final String wireName;

  Kind(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON. */
  public String wireName() {
    return wireName;
  }

  /** Whether the timer repeats ({@code periodMs} is set). */
  public boolean periodic() {
    return this != ONCE;
  }

  /** The kind with that wire name, or {@code null}. */
  public static Kind fromWire(String name) {
    for (Kind k : values()) {
      if (k.wireName.equals(name)) {
        return k;
      }
    }
    return null;
  }
}
