package io.tickwheel.core.model;

/**
 * What a {@link Kind#FIXED_RATE} timer does with due times it missed, because the server was down or
 * more than the misfire threshold behind (see {@link Schedule#onDue}). Other kinds ignore it.
 */
public enum Misfire {
  /** The missed due times coalesce into one firing (reporting the latest missed due time); then back on the grid. */
  FIRE_ONCE("fire-once"),
  /** Every missed due time fires, one after the other, as fast as the server can; then back on the grid. */
  FIRE_ALL("fire-all"),
  /** Missed due times do not fire at all; the timer continues with the next due time after now. */
  SKIP("skip");

  private final String wireName;

  Misfire(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON. */
  public String wireName() {
    return wireName;
  }

  /** The rule with that wire name, or {@code null}. */
  public static Misfire fromWire(String name) {
    for (Misfire m : values()) {
      if (m.wireName.equals(name)) {
        return m;
      }
    }
    return null;
  }
}
