package io.tickwheel.server.scheduler;

import io.tickwheel.core.model.Timer;

/**
 * What a write of the {@link Scheduler} did: one of the successes below, or a {@link Refusal} saying why nothing was
 * done (or, for {@link Refusal.StoreUnavailable}, why the answer is unknown). Domain terms only: the HTTP edge maps
 * each to a status and an error code.
 *
 * <p>Which write yields which success: {@code create} → {@link Created}; {@code upsert} → {@link Created} or
 * {@link Replaced}; {@code cancel} → {@link Cancelled} or {@link Refusal.NotFound}; {@code touch} →
 * {@link Touched} or {@link Refusal.NotFound}; {@code pause} → {@link Paused}, {@code resume} → {@link Resumed},
 * {@code fireNow} → {@link FiredNow} (or {@link Refusal.NotFound}); {@code pauseTopic}/{@code resumeTopic} →
 * {@link TopicChanged}. Immutable.
 */
public sealed interface WriteOutcome permits WriteOutcome.Created, WriteOutcome.Replaced, WriteOutcome.Cancelled,
    WriteOutcome.Touched, WriteOutcome.Paused, WriteOutcome.Resumed, WriteOutcome.FiredNow, WriteOutcome.TopicChanged,
    Refusal {

  /** A new timer is stored and armed; {@code timer} carries its payload. */
  record Created(Timer timer) implements WriteOutcome {}

  /** An existing timer was replaced by {@code timer} (next generation); the old due time never fires. */
  record Replaced(Timer timer) implements WriteOutcome {}

  /** The timer {@code id} was removed; it never fires afterwards. */
  record Cancelled(String id) implements WriteOutcome {}

  /** The timer's countdown restarted; {@code timer} is the stored state, with its payload. */
  record Touched(Timer timer) implements WriteOutcome {}

  /** The timer is paused (or already was); {@code timer} is the stored state, with its payload. */
  record Paused(Timer timer) implements WriteOutcome {}

  /** The timer is resumed (or was not paused); {@code timer} is the stored state, with its payload. */
  record Resumed(Timer timer) implements WriteOutcome {}

  /**
   * The timer fired once now; {@code timer} is its state after that firing, with its payload (a {@code once} timer,
   * or one that reached {@code maxFirings}, has ended: this is its last state).
   */
  record FiredNow(Timer timer) implements WriteOutcome {}

  /** A topic was paused or resumed (durably); {@code topic} is its state now. */
  record TopicChanged(TopicInfo topic) implements WriteOutcome {}
}
