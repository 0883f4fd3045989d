/** What the client needs from its runtime: HTTP exchanges with a deadline and WebSockets. */

/** An HTTP request the client makes; `body` is JSON text. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** From the call to the answer's last byte, ms: past it the exchange fails with `timedOut` and is aborted. */
  timeoutMs: number;
}

/** A whole HTTP answer. */
export interface HttpAnswer {
  status: number;
  body: string;
}

/**
 * An HTTP exchange that got no whole answer. `sent`: the request may have reached the server (a connection was
 * had); false means it certainly did not. `connectFailed`: no connection could be made to the endpoint (refused,
 * DNS, or the deadline passed while connecting), so another endpoint may be tried; false for a request that merely
 * waited for a pooled connection.
 */
export class TransportFailure extends Error {
  constructor(message: string, readonly sent: boolean, readonly timedOut: boolean, readonly connectFailed = false) {
    super(message);
    this.name = 'TransportFailure';
  }
}

/** The parts of a WebSocket the client uses (the WHATWG API, which the `ws` package implements as well). */
export interface SocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

export interface Platform {
  /** One exchange, answered in full within `req.timeoutMs`, else rejected with a {@link TransportFailure}. */
  request(req: HttpRequest): Promise<HttpAnswer>;
  /** A WebSocket to `url` (ws:// or wss://) carrying `token`; the caller bounds the handshake with its own timer. */
  webSocket(url: string, token: string | undefined, connectTimeoutMs: number): SocketLike;
  /** Closes a socket at once, without the closing handshake (a dead peer). */
  abort(socket: SocketLike): void;
  /** Frees pooled connections. */
  close(): void;
}

/** `WebSocket.OPEN`. */
export const OPEN = 1;
