package io.tickwheel.core.store;

import io.tickwheel.core.callback.Callback;
import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.model.Timer;
import java.util.Objects;

/**
 * One due timer to settle atomically in a store: record its firing (if {@code fire}) and advance or remove it.
 *
 * <p>The store applies it only if the stored timer still has {@code generation} and {@code firingsBefore}
 * firings; otherwise (replaced, touched, removed, or already settled) it is <em>stale</em> and nothing is written.
 * This is what keeps a timer from firing twice for one due time, and a cancelled one from firing afterwards.
 *
 * @param id            the timer's id
 * @param generation    the generation the decision was computed from
 * @param firingsBefore the firing count the decision was computed from
 * @param fire          whether to append a firing to the log (false: a skipped misfire that only advances)
 * @param dueAt         the due time the firing reports
 * @param firedAt       when it fired, epoch ms
 * @param next          the timer's next state, or {@code null} to remove it; its payload is ignored
 *                      (the store keeps the stored payload)
 * @param nominalAt     the nominal (un-jittered) time of {@code dueAt}, epoch ms, {@code <= dueAt} when {@code fire}; the recorded
 *                      {@link io.tickwheel.core.model.Firing#nominalAt()} is this (equal to {@code dueAt} for a timer
 *                      without jitter)
 * @param callback      the timer's callback as of {@code generation}, or {@code null}: when the request fires, the
 *                      store records a pending {@link Delivery} of the firing in the same atomic write
 *                      ({@link FiringResult#delivery()})
 */
public record FiringRequest(String id, long generation, long firingsBefore, boolean fire, long dueAt, long firedAt,
    Timer next, long nominalAt, Callback callback) {

  /** A request for a timer without a callback. */
  public FiringRequest(String id, long generation, long firingsBefore, boolean fire, long dueAt, long firedAt,
      Timer next, long nominalAt) {
    this(id, generation, firingsBefore, fire, dueAt, firedAt, next, nominalAt, null);
  }

  /** A request for a timer without jitter: its nominal time is {@code dueAt}. */
  public FiringRequest(String id, long generation, long firingsBefore, boolean fire, long dueAt, long firedAt,
      Timer next) {
    this(id, generation, firingsBefore, fire, dueAt, firedAt, next, dueAt);
  }

  public FiringRequest {
    Objects.requireNonNull(id, "id");
    if (next != null && !next.id().equals(id)) {
      throw new IllegalArgumentException("next.id " + next.id() + " differs from id " + id);
    }
    if (fire && nominalAt > dueAt) {
      throw new IllegalArgumentException("nominalAt " + nominalAt + " is after dueAt " + dueAt);
    }
  }
}
