package io.tickwheel.core.store;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.model.Firing;

/**
 * The outcome of one {@link FiringRequest}.
 *
 * @param applied whether the request was applied (false: stale, nothing written)
 * @param firing  the recorded firing with its {@code seq}, topic and payload; {@code null} when not applied
 *                or when the request did not fire
 * @param delivery the pending delivery recorded with the firing (its request had a callback), or {@code null}
 */
public record FiringResult(boolean applied, Firing firing, Delivery delivery) {

  private static final FiringResult STALE = new FiringResult(false, null, null);
  private static final FiringResult ADVANCED = new FiringResult(true, null, null);

  public FiringResult(boolean applied, Firing firing) {
    this(applied, firing, null);
  }

  /** A stale request: nothing written. */
  public static FiringResult stale() {
    return STALE;
  }

  /** Applied without a firing (a skipped misfire). */
  public static FiringResult advanced() {
    return ADVANCED;
  }

  /** Applied and recorded. */
  public static FiringResult fired(Firing f) {
    return new FiringResult(true, f, null);
  }

  /** Applied and recorded, with the pending delivery recorded beside the firing ({@code d} may be null). */
  public static FiringResult fired(Firing f, Delivery d) {
    return new FiringResult(true, f, d);
  }
}
