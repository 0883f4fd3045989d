package io.tickwheel.core.store;

/**
 * The failure of a {@link TimerStore} call: every store fails its calls with one of the three kinds below (and
 * with {@link IllegalArgumentException} or {@link NullPointerException} only for arguments that break the SPI's
 * preconditions, a caller bug).
 * <ul>
 *   <li>{@link StoreUnavailableException}: the backend cannot be used right now (unreachable, connection reset or
 *       closed, no answer within the timeout, a full queue, an I/O error). Retrying later may succeed; the
 *       server answers 503.</li>
 *   <li>{@link StoreClosedException}: the store was closed; every later call fails the same way.</li>
 *   <li>{@link StoreFaultException}: the store answered, but something is wrong (a corrupt or foreign record, a
 *       script error, an unexpected reply). Retrying does not help.</li>
 * </ul>
 *
 * <h2>Was a failed write applied?</h2>
 * {@link #mayHaveApplied()} is {@code false} only when the store knows the call changed nothing: it was refused
 * before it reached the backend (not connected, the store closed, a full queue) or the backend refused it as a
 * whole. It is {@code true} whenever the call may have taken effect: a command written to a connection that then
 * broke or timed out, a write whose durable step failed half way, an error after part of a script ran. A caller
 * that must know then reads the state back. For calls that only read, nothing is applied whatever it says.
 *
 * <p>Immutable, thread safe.
 */
public abstract class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean mayHaveApplied;

  protected StoreException(String message, Throwable cause, boolean mayHaveApplied) {
    super(message, cause);
    this.mayHaveApplied = mayHaveApplied;
  }

  /**
   * Whether the failed call may have been applied by the store: {@code false} only when it certainly was not
   * (see the class comment).
   */
  public boolean mayHaveApplied() {
    return mayHaveApplied;
  }
}
