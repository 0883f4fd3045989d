package io.tickwheel.server.scheduler;

import java.util.List;

/**
 * A copy of the wheel's shape at one instant, for the console's view ({@code GET /v1/wheel}): nothing in it refers
 * back to the live wheel. Immutable once built (the occupancy arrays belong to the snapshot; do not modify them).
 *
 * @param tickMs      the wheel's tick, ms
 * @param wheelTimeMs the wheel's own time, epoch ms (the start of the tick it last advanced to)
 * @param levels      the levels, finest first
 */
public record WheelSnapshot(long tickMs, long wheelTimeMs, List<Level> levels) {

  public WheelSnapshot {
    levels = List.copyOf(levels);
  }

  /** An empty wheel of one level of 64 slots of {@code tickMs} (a node serving no partition), its cursor at {@code nowMs}. */
  public static WheelSnapshot empty(long tickMs, long nowMs) {
    int slots = 64;
    return new WheelSnapshot(tickMs, nowMs - Math.floorMod(nowMs, tickMs),
        List.of(new Level(0, slots, tickMs, (int) Math.floorMod(nowMs / tickMs, slots), 0, new int[slots])));
  }

  /**
   * One level of the wheel.
   *
   * @param level     0 for the finest
   * @param slots     number of slots
   * @param spanMs    the time one slot spans, ms
   * @param cursor    the slot the level's cursor is at
   * @param count     timers filed in this level
   * @param occupancy timers per slot, {@code slots} entries
   */
  public record Level(int level, int slots, long spanMs, int cursor, int count, int[] occupancy) {}
}
