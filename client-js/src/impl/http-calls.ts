import { ErrorCodes, TickwheelError } from '../errors.js';
import { decode, errorOf, isObject } from './answers.js';
import type { Endpoints } from './endpoints.js';
import { type HttpAnswer, type Platform, TransportFailure } from './platform.js';

/**
 * HTTP exchanges on the endpoint in use: every request carries the token and, with a body, `Content-Type:
 * application/json`; one that could not connect to the endpoint moves everyone to the next endpoint. Each is
 * answered in full within its timeout or fails ({@link Platform.request}). Nothing is retried here.
 */
export class HttpCalls {
  private closed = false;

  constructor(private readonly platform: Platform, private readonly endpoints: Endpoints,
    private readonly token: string | undefined, private readonly requestTimeoutMs: number) {}

  /** Later calls fail with `client_closed`, and so do those whose exchange the platform's close then cuts off. */
  close(): void {
    this.closed = true;
  }

  /**
   * One exchange, to `owner` (a partition's owner, see `PartitionMap`) or else the endpoint in use; rejects with a
   * {@link TransportFailure}. A failure to reach an owner is the caller's to report; it does not move the endpoint.
   */
  send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: string | undefined,
    timeoutMs: number = this.requestTimeoutMs, owner?: string): Promise<HttpAnswer> {
    const base = owner ?? this.endpoints.current();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token !== undefined) {
      headers['Authorization'] = `Bearer ${this.token}`;
    }
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const req = body === undefined ? { method, url: base + path, headers, timeoutMs }
      : { method, url: base + path, headers, body, timeoutMs };
    return this.platform.request(req).catch((e: unknown) => {
      if (e instanceof TransportFailure && e.connectFailed && owner === undefined) {
        this.endpoints.failed(base);
      }
      throw e;
    });
  }

  /**
   * `method path` (with a JSON body for writes): the JSON object answered with one of `ok`, else the answer's error
   * as a {@link TickwheelError}; a failed exchange is `timeout` or `connection_lost`, `mayHaveApplied` for a write
   * that may have been sent.
   */
  async json<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, write: boolean, ok: readonly number[] = [200],
    body?: unknown): Promise<T> {
    if (this.closed) {
      throw TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the client is closed', false);
    }
    let answer: HttpAnswer;
    try {
      answer = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
    } catch (e) {
      if (this.closed) {
        const sent = !(e instanceof TransportFailure) || e.sent;
        throw TickwheelError.client(ErrorCodes.CLIENT_CLOSED, `${method} ${path}: the client was closed before its `
          + `answer${write && sent ? '; it may have been applied' : ''}`, write && sent);
      }
      throw transportError(e, `${method} ${path}`, write);
    }
    const decoded = decode(answer.body);
    if (ok.includes(answer.status) && isObject(decoded)) {
      return decoded as T;
    }
    if (ok.includes(answer.status)) {
      throw TickwheelError.client(ErrorCodes.PROTOCOL, `${method} ${path}: ${answer.status} without a JSON object`,
        write);
    }
    throw errorOf(answer.status, decoded);
  }
}

/** A failed exchange as a TickwheelError: `timeout` past the deadline, else `connection_lost`. */
export function transportError(e: unknown, what: string, write: boolean): TickwheelError {
  if (e instanceof TransportFailure) {
    return TickwheelError.client(e.timedOut ? ErrorCodes.TIMEOUT : ErrorCodes.CONNECTION_LOST,
      `${what}: ${e.message}${write && e.sent ? ' (sent: it may have been applied)' : ''}`, write && e.sent);
  }
  return TickwheelError.client(ErrorCodes.CONNECTION_LOST, `${what}: ${String(e)}`, write);
}
