package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;

/**
 * What a write of the {@link Scheduler} did: one of the successes below, or a {@link Refusal} saying why nothing was
 * done (or, for {@link Refusal.StoreUnavailable}, why the answer is unknown). Domain terms only: the HTTP edge maps
 * each to a status and an error code.
 *
 * <p>Which write yields which success: {@code create} → {@link Created}; {@code upsert} → {@link Created} or
 * {@link Replaced}; {@code cancel} → {@link Cancelled} or {@link Refusal.NotFound}; {@code touch} →
 * {@link Touched} or {@link Refusal.NotFound}. Immutable.
 */
public sealed interface WriteOutcome permits WriteOutcome.Created, WriteOutcome.Replaced, WriteOutcome.Cancelled,
    WriteOutcome.Touched, Refusal {

  /** A new timer is stored and armed; {@code timer} carries its payload. */
  record Created(Timer timer) implements WriteOutcome {}

  /** An existing timer was replaced by {@code timer} (next generation); the old due time never fires. */
  record Replaced(Timer timer) implements WriteOutcome {}

  /** The timer {@code id} was removed; it never fires afterwards. */
  record Cancelled(String id) implements WriteOutcome {}

  /** The timer's countdown restarted; {@code timer} is the stored state, with its payload. */
  record Touched(Timer timer) implements WriteOutcome {}
}
