package io.tickwheel.core.model;

/**
 * The limits a timer definition is validated against.
 *
 * @param tickMs          the wheel's tick; the smallest allowed {@code periodMs}
 * @param maxHorizonMs    how far ahead a due time (and a period) may be, milliseconds
 * @param maxPayloadBytes the largest serialized payload, bytes (UTF-8 JSON)
 */
public record Limits(long tickMs, long maxHorizonMs, int maxPayloadBytes) {

  /** Ten years (3,653 days), the contract's minimum horizon. */
  public static final long TEN_YEARS_MS = 3653L * 24 * 3600 * 1000;

  /** 64 KiB, the contract's payload limit. */
  public static final int DEFAULT_MAX_PAYLOAD_BYTES = 64 * 1024;

  /**
   * One billion: the default cap on the timers a server holds pending (its {@code --max-pending}) when only the timers
   * due soon are in memory and the rest stay in the store (a window, on disk: what the disk allows); beyond it,
   * creates are refused as resource-exhausted. Not a field of this record: the cap is the scheduler's.
   */
  public static final long DEFAULT_MAX_PENDING = 1_000_000_000;

  /**
   * Ten million: the default cap on the pending timers when every one is in memory (a store that keeps its timers on
   * the heap, or no window), so that a full server refuses creates rather than running out of memory.
   */
  public static final long DEFAULT_MAX_PENDING_IN_MEMORY = 10_000_000;

  public Limits {
    if (tickMs < 1) {
      throw new IllegalArgumentException("tickMs must be >= 1, was " + tickMs);
    }
    if (maxHorizonMs < tickMs) {
      throw new IllegalArgumentException("maxHorizonMs must be >= tickMs, was " + maxHorizonMs);
    }
    if (maxPayloadBytes < 0) {
      throw new IllegalArgumentException("maxPayloadBytes must be >= 0, was " + maxPayloadBytes);
    }
  }

  /** The contract's defaults for a tick. */
  public static Limits defaults(long tickMs) {
    return new Limits(tickMs, TEN_YEARS_MS, DEFAULT_MAX_PAYLOAD_BYTES);
  }
}
