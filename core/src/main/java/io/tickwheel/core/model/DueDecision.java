package io.tickwheel.core.model;

/**
 * What to do with a timer that has come due: see {@link Schedule#onDue} (also the answer of
 * {@link Schedule#fireNow}).
 *
 * @param fire       whether a firing is recorded and pushed now
 * @param firedDueAt the due time the firing reports, epoch ms (meaningful when {@code fire})
 * @param nominalAt  the nominal (un-jittered) time of that due time, epoch ms, {@code <= firedDueAt}; equal to it for
 *                   a timer without jitter (meaningful when {@code fire})
 * @param next       the timer's next state (with its firing count advanced when {@code fire}),
 *                   or {@code null} when the timer has ended and is removed
 */
public record DueDecision(boolean fire, long firedDueAt, long nominalAt, Timer next) {

  /** A decision for a timer without jitter: the nominal time is the due time. */
  public DueDecision(boolean fire, long firedDueAt, Timer next) {
    this(fire, firedDueAt, firedDueAt, next);
  }

  /** Whether the timer has ended. */
  public boolean ends() {
    return next == null;
  }
}
