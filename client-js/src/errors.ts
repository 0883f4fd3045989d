/**
 * A call the server refused, or one the client could not complete.
 *
 * Server answers carry the HTTP status the contract gives the call (`400 invalid_argument`, `404 not_found`,
 * `409 already_exists`, `413 payload_too_large`, `429 resource_exhausted`, `503 unavailable`, …) with the server's
 * `code`, `message` and, for a bad field, `field`.
 *
 * Failures on the client's side have `status` 0 and one of the codes in {@link ErrorCodes}; `mayHaveApplied` says
 * whether the server may have applied the call anyway (it was sent and no answer came back).
 */
export class TickwheelError extends Error {
  /** The HTTP status the server answered, or 0 when the failure is on the client's side. */
  readonly status: number;
  /** `invalid_argument`, `not_found`, … or one of {@link ErrorCodes}; never empty. */
  readonly code: string;
  /**
   * The field the server named, or undefined: for `schedule` and `put` a field of the timer (`delayMs`,
   * `callback.url`, …), whichever transport carried it.
   */
  readonly field: string | undefined;
  /**
   * True when the call may have been applied by the server although it failed here: a 503 whose message does not
   * say "not applied", or a client-side failure after the request was sent. False: certainly not applied.
   */
  readonly mayHaveApplied: boolean;

  constructor(status: number, code: string, field: string | undefined, message: string, mayHaveApplied: boolean) {
    super(message);
    this.name = 'TickwheelError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.mayHaveApplied = mayHaveApplied;
  }

  /** A failure on the client's side (status 0). */
  static client(code: ClientErrorCode, message: string, mayHaveApplied: boolean): TickwheelError {
    return new TickwheelError(0, code, undefined, message, mayHaveApplied);
  }

  override toString(): string {
    return `TickwheelError{status=${this.status}, code=${this.code}${this.field === undefined ? '' : `, field=${this.field}`}`
      + `, message=${this.message}${this.mayHaveApplied ? ', mayHaveApplied' : ''}}`;
  }
}

/** The codes of failures on the client's side (status 0). */
export const ErrorCodes = {
  /** The connection closed while the call was in flight, and the call is not retried. */
  CONNECTION_LOST: 'connection_lost',
  /** No answer within `requestTimeoutMs`, time queued included. */
  TIMEOUT: 'timeout',
  /** Refused at once: the bounded queue is full. */
  QUEUE_FULL: 'queue_full',
  /** The client (or subscription) was closed before the call completed. */
  CLIENT_CLOSED: 'client_closed',
  /** The server sent something the client does not understand. */
  PROTOCOL: 'protocol_error',
} as const;

export type ClientErrorCode = typeof ErrorCodes[keyof typeof ErrorCodes];
