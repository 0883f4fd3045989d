package io.tickwheel.core.store;

/**
 * The store was closed ({@link TimerStore#close()}): the call was refused, or it was still in flight when the store
 * closed (then it may have been applied, see {@link #mayHaveApplied()}). Every later call fails the same way.
 */
public class StoreClosedException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** A call refused because the store is closed: nothing was applied. */
  public StoreClosedException(String message) {
    super(message, null, false);
  }

  /**
   * @param mayHaveApplied whether the call may have taken effect before the store closed (it was in flight)
   */
  public StoreClosedException(String message, boolean mayHaveApplied) {
    super(message, null, mayHaveApplied);
  }
}
