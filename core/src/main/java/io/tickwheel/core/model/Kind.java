package io.tickwheel.core.model;

/**
 * How a timer repeats. Wire names are those of the contract: {@code once}, {@code fixed-rate}, {@code fixed-delay},
 * {@code cron}. (Stores may encode the ordinal: new kinds go at the end.)
 */
public enum Kind {
  /** Fires once at its due time, then ends. */
  ONCE("once"),
  /** The n-th firing is due at {@code start + n·periodMs}, whatever the lateness of earlier firings. */
  FIXED_RATE("fixed-rate"),
  /** The next firing is due {@code periodMs} after the previous firing actually happened. */
  FIXED_DELAY("fixed-delay"),
  /** Due at the times of a cron expression in a time zone (see {@link io.tickwheel.core.calendar.ZonedCron}). */
  CRON("cron");

  private final String wireName;

  Kind(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON. */
  public String wireName() {
    return wireName;
  }

  /** Whether the timer repeats: every kind but {@code once}. */
  public boolean periodic() {
    return this != ONCE;
  }

  /** Whether the timer repeats every {@code periodMs}: {@code fixed-rate} and {@code fixed-delay}. */
  public boolean hasPeriod() {
    return this == FIXED_RATE || this == FIXED_DELAY;
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
