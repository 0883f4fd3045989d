package io.tickwheel.core.calendar;

/**
 * What a cron timer does with a local time that a daylight-saving change skips (it never happens on the wall clock,
 * e.g. 02:30 on the night the clocks jump from 02:00 to 03:00). See {@link ZonedCron}.
 */
public enum DstGap {
  /** The skipped local time fires once, at the end of the gap (the instant of the clock change). */
  SHIFT("shift"),
  /** The skipped local time does not fire that day. */
  SKIP("skip"),
  /** {@link #SHIFT} when the hour field is fixed, {@link #SKIP} when it is a wildcard or a step: see {@link CronPattern#hourIsWildcard()}. */
  AUTO("auto");

  private final String wireName;

  DstGap(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in JSON. */
  public String wireName() {
    return wireName;
  }

  /** The policy with that wire name, or {@code null}. */
  public static DstGap fromWire(String name) {
    for (DstGap g : values()) {
      if (g.wireName.equals(name)) {
        return g;
      }
    }
    return null;
  }
}
