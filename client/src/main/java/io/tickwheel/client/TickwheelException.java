package io.tickwheel.client;

/**
 * A call the server refused, or one the client could not complete.
 *
 * <p>Server answers carry the HTTP status the contract gives the call ({@code 400 invalid_argument},
 * {@code 404 not_found}, {@code 409 already_exists}, {@code 413 payload_too_large}, {@code 429 resource_exhausted},
 * {@code 503 unavailable}, …) with the server's {@code code}, {@code message} and, for a bad field, {@code field}.
 *
 * <p>Failures on the client's side have {@link #status()} {@code 0} and one of the codes below;
 * {@link #mayHaveApplied()} says whether the server may have applied the command anyway (it was written to the
 * socket and no answer came back).
 *
 * <p>Immutable, thread safe.
 */
public final class TickwheelException extends RuntimeException {

  /** The connection closed while the command was in flight and the command is not retried (see the client). */
  public static final String CONNECTION_LOST = "connection_lost";
  /** No answer within {@link TickwheelClientOptions#getRequestTimeoutMs()}, queue time included. */
  public static final String TIMEOUT = "timeout";
  /** Refused at once: {@code maxInFlight} commands in flight and {@code maxQueued} waiting already. */
  public static final String QUEUE_FULL = "queue_full";
  /** The client was closed before the command completed. */
  public static final String CLIENT_CLOSED = "client_closed";
  /** The server sent something the client does not understand. */
  public static final String PROTOCOL = "protocol_error";

  private final int status;
  private final String code;
  private final String field;
  private final boolean mayHaveApplied;

  /**
   * @param status the HTTP status of the server's answer, or 0 for a failure on the client's side
   * @param code the server's error code, or one of this class's constants
   * @param field the request field the server named, or null
   * @param message what went wrong
   * @param mayHaveApplied true when the server may have applied the command although the caller got this exception
   */
  public TickwheelException(int status, String code, String field, String message, boolean mayHaveApplied) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.mayHaveApplied = mayHaveApplied;
  }

  /** A failure on the client's side (status 0). */
  public static TickwheelException client(String code, String message, boolean mayHaveApplied) {
    return new TickwheelException(0, code, null, message, mayHaveApplied);
  }

  /** The HTTP status the server answered, or 0 when the failure is on the client's side. */
  public int status() {
    return status;
  }

  /** {@code invalid_argument}, {@code not_found}, … or one of this class's constants; never null. */
  public String code() {
    return code;
  }

  /**
   * The field the server named, or null: for {@code schedule} and {@code put} a field of the {@link TimerRequest}
   * (e.g. {@code delayMs}, {@code callback.url}), whichever transport carried it.
   */
  public String field() {
    return field;
  }

  /**
   * True when the command may have been applied by the server although it failed here: a 503 whose body says so,
   * or a client-side failure after the command was written. False means it was certainly not applied.
   */
  public boolean mayHaveApplied() {
    return mayHaveApplied;
  }

  @Override
  public String toString() {
    return "TickwheelException{status=" + status + ", code=" + code + (field == null ? "" : ", field=" + field)
        + ", message=" + getMessage() + (mayHaveApplied ? ", mayHaveApplied" : "") + '}';
  }
}
