package io.tickwheel.core.calendar;

/**
 * What a cron timer does with a local time that a daylight-saving change repeats (it happens twice on the wall clock,
 * e.g. 01:30 on the night the clocks fall back from 02:00 to 01:00). See {@link ZonedCron}.
 */
public enum DstOverlap {
  /** The repeated local time fires once, at its first occurrence (the earlier offset). */
  ONCE("once"),
  /** The repeated local time fires at both occurrences. */
  TWICE("twice"),
  /** {@link #ONCE} when the hour field is fixed, {@link #TWICE} when it is a wildcard or a step: see {@link CronPattern#hourIsWildcard()}. */
  AUTO("auto");

  private final String wireName;

  DstOverlap(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON. */
  public String wireName() {
    return wireName;
  }

  /** The policy with that wire name, or {@code null}. */
  public static DstOverlap fromWire(String name) {
    for (DstOverlap o : values()) {
      if (o.wireName.equals(name)) {
        return o;
      }
    }
    return null;
  }
}
