package io.tickwheel.core.store;

/**
 * The store answered, but something is wrong: a corrupt or foreign record, data of another format, a script error,
 * an unexpected reply, a directory that cannot be used. Retrying does not help; the server answers 500. Whether a
 * failed write may have been applied is {@link #mayHaveApplied()} (e.g. a script that failed half way).
 */
public class StoreFaultException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * @param mayHaveApplied {@code false} only when the call certainly did not take effect (see
   *                       {@link StoreException})
   */
  public StoreFaultException(String message, Throwable cause, boolean mayHaveApplied) {
    super(message, cause, mayHaveApplied);
  }
}
