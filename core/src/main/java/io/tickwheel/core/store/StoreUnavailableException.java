package io.tickwheel.core.store;

/**
 * The store's backend cannot be used right now: unreachable, restarting or loading, connection reset or closed, no
 * answer within the command timeout, a full queue, an I/O error. Callers may retry later; the server answers 503.
 * Whether a failed write may have been applied is {@link #mayHaveApplied()}.
 */
public class StoreUnavailableException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param mayHaveApplied {@code false} only when the call certainly did not take effect (see
   *                       {@link StoreException})
   */
  public StoreUnavailableException(String message, Throwable cause, boolean mayHaveApplied) {
    super(message, cause, mayHaveApplied);
  }

  /** A failure that may have been applied (the answer when nothing more is known). */
  public StoreUnavailableException(String message, Throwable cause) {
    this(message, cause, true);
  }

  /** A failure that may have been applied (the answer when nothing more is known). */
  public StoreUnavailableException(String message) {
    this(message, null, true);
  }
}
