package io.tickwheel.core.store;

/** The store's backend cannot be reached now (connection lost, restarting). Callers may retry later; the server answers 503. */
public class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreUnavailableException(String message) {
    super(message);
  }
}
