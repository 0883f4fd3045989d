import { ErrorCodes, TickwheelError } from '../errors.js';
import { decode, errorOf, isObject } from './answers.js';
import type { Endpoints } from './endpoints.js';
import { now } from './deferred.js';
import { type HttpAnswer, type Platform, TransportFailure } from './platform.js';

/** Where a call about one timer goes: its owner's base URL, and the map to tell when it is unreachable or moving. */
export interface OwnerRoute {
  readonly owner: string | undefined;
  /** The owner could not be reached. */
  failed(owner: string): void;
  /** The owner answered 503. */
  stale(): void;
}

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
   *
   * With a `route` whose owner is known, the call goes to the owner; one that could not reach it (nothing sent) is
   * reported (`failed`) and sent to the endpoint in use within what is left of the timeout; a 503 is reported
   * (`stale`).
   */
  async json<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, write: boolean, ok: readonly number[] = [200],
    body?: unknown, route?: OwnerRoute): Promise<T> {
    if (this.closed) {
      throw TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the client is closed', false);
    }
    let answer: HttpAnswer;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const deadline = now() + this.requestTimeoutMs;
    try {
      const owner = route?.owner;
      try {
        answer = await this.send(method, path, text, this.requestTimeoutMs, owner);
      } catch (e) {
        const left = deadline - now();
        if (owner === undefined || !(e instanceof TransportFailure) || e.sent || left <= 0 || this.closed) {
          throw e;
        }
        route!.failed(owner);
        answer = await this.send(method, path, text, left);
      }
      if (answer.status === 503) {
        route?.stale();
      }
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
