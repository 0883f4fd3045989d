package io.tickwheel.core.model;

/**
 * What to do with a timer that has come due: see {@link Schedule#onDue}.
 *
 * @param fire       whether a firing is recorded and pushed now
 * @param firedDueAt the due time the firing reports (meaningful when {@code fire})
 * @param next       the timer's next state (with its firing count advanced when {@code fire}),
 *                   or {@code null} when the timer has ended and is removed
 */
public record DueDecision(boolean fire, long firedDueAt, Timer next) {

  /** Whether the timer has ended. */
  public boolean ends() {
    return next == null;
  }
}
