import { ErrorCodes, TickwheelError } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import type { Firing, From } from '../types.js';
import { decode, isObject, shorten } from './answers.js';
import { ReconnectBackoff } from './backoff.js';
import { Deferred, now } from './deferred.js';
import { Endpoints } from './endpoints.js';
import type { Platform, SocketLike } from './platform.js';

/**
 * A live subscription made by `TickwheelClient.subscribe`: it keeps one WebSocket of its own, reconnects with the
 * client's backoff whenever that socket closes (server restart, `1013` slow consumer, network, a peer that answers
 * nothing for `idleTimeoutMs`), and resumes after the last firing it delivered, so its handler sees each firing
 * still retained by the server once, in the server's order, on whichever endpoint it reconnects to.
 */
export interface Subscription {
  /**
   * Resolves once the server first confirmed the subscription (`{"type":"subscribed"}`); from then on every firing of
   * the topics is delivered. Rejects (`client_closed`) if the subscription is closed first.
   */
  readonly subscribed: Promise<void>;
  /** The seq of the last firing delivered, or of the server's latest firing at subscribe time; -1 before either. */
  readonly lastSeq: number;
  /** The cursor of the last firing delivered (pass it as `from` to resume in another process), or undefined. */
  readonly lastCursor: string | undefined;
  /** How many times the socket was re-established after the first. */
  readonly reconnects: number;
  /** Stops the subscription: no firing is delivered after the returned promise resolves. Idempotent. */
  close(): Promise<void>;
}

/**
 * Where it resumes: the cursor of the last delivered firing if the server sends cursors, else its seq; before any
 * firing, the position it started from (the `from` given, else the `cursor` or `seq` of the server's `subscribed`
 * answer for a live-only start). A firing whose seq is not after the last delivered one is dropped (single node;
 * skipped for firings that name a `partition`, whose seqs count per partition and resume by cursor). An `error`
 * answer to the subscribe closes the socket and retries with the backoff; a `gap` notice is reported and the
 * retained firings that follow it are delivered. Pings every half of `idleTimeoutMs`.
 */
export class SubscriptionImpl implements Subscription {
  private readonly ready = new Deferred<void>();
  private readonly backoff: ReconnectBackoff;
  private readonly pingMs: number;
  private seq = -1;
  private cursor: string | undefined;
  private reconnectCount = 0;
  private everConnected = false;
  private ws: SocketLike | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastHeard = 0;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly platform: Platform, private readonly endpoints: Endpoints,
    private readonly o: ResolvedOptions, private readonly topics: readonly string[], from: From,
    private readonly handler: (f: Firing) => void, private readonly warn: (message: string) => void) {
    if (!Array.isArray(topics) || topics.length === 0 || topics.some((t) => typeof t !== 'string')) {
      throw new TypeError(`topics must name at least one topic ("*" for all), was ${JSON.stringify(topics)}`);
    }
    if (from !== undefined && typeof from !== 'string' && !(typeof from === 'number' && Number.isSafeInteger(from)
      && from >= 0)) {
      throw new TypeError(`from must be undefined, a seq (integer >= 0) or a cursor string, was ${String(from)}`);
    }
    if (typeof handler !== 'function') {
      throw new TypeError('handler must be a function');
    }
    this.backoff = new ReconnectBackoff(o.reconnectInitialBackoffMs, o.reconnectMaxBackoffMs);
    this.pingMs = Math.max(50, Math.floor(o.idleTimeoutMs / 2));
    if (typeof from === 'string') {
      this.cursor = from;
    } else if (typeof from === 'number') {
      this.seq = from;
    }
    this.ready.promise.catch(() => {}); // a caller that never looks at `subscribed` gets no unhandled rejection
    this.connect();
  }

  get subscribed(): Promise<void> {
    return this.ready.promise;
  }

  get lastSeq(): number {
    return this.seq;
  }

  get lastCursor(): string | undefined {
    return this.cursor;
  }

  get reconnects(): number {
    return this.reconnectCount;
  }

  private connect(): void {
    if (this.closed) {
      return;
    }
    const base = this.endpoints.current();
    let socket: SocketLike;
    try {
      socket = this.platform.webSocket(Endpoints.ws(base), this.o.token, this.o.connectTimeoutMs);
    } catch (e) {
      this.warn(`subscription connect failed: ${String(e)}`);
      this.endpoints.failed(base);
      this.retryLater();
      return;
    }
    this.ws = socket;
    let opened = false;
    const connectTimer = setTimeout(() => this.platform.abort(socket), this.o.connectTimeoutMs);
    socket.onerror = () => {};
    socket.onopen = () => {
      clearTimeout(connectTimer);
      opened = true;
      if (this.closed || socket !== this.ws) {
        socket.close(1000);
        return;
      }
      if (this.everConnected) {
        this.reconnectCount++;
      }
      this.everConnected = true;
      this.lastHeard = now();
      const sub: Record<string, unknown> = { op: 'subscribe', topics: this.topics };
      if (this.cursor !== undefined) {
        sub['from'] = this.cursor;
      } else if (this.seq >= 0) {
        sub['from'] = this.seq;
      }
      socket.send(JSON.stringify(sub));
      this.pingTimer = setInterval(() => this.ping(socket), this.pingMs);
    };
    socket.onmessage = (ev) => {
      if (!this.closed && socket === this.ws) {
        this.lastHeard = now();
        this.onText(socket, typeof ev.data === 'string' ? ev.data : String(ev.data));
      }
    };
    socket.onclose = () => {
      clearTimeout(connectTimer);
      if (socket !== this.ws) {
        return;
      }
      this.ws = undefined;
      clearInterval(this.pingTimer);
      this.pingTimer = undefined;
      if (!opened) {
        this.endpoints.failed(base);
      }
      this.retryLater();
    };
  }

  /** Pings, or drops a socket that has answered nothing (not even a pong) for `idleTimeoutMs`. */
  private ping(socket: SocketLike): void {
    if (socket !== this.ws) {
      return;
    }
    if (now() - this.lastHeard >= this.o.idleTimeoutMs) {
      this.warn(`subscription heard nothing for ${this.o.idleTimeoutMs} ms: reconnecting`);
      this.platform.abort(socket);
      return;
    }
    socket.send('{"op":"ping"}');
  }

  private onText(socket: SocketLike, text: string): void {
    const m = decode(text);
    if (!isObject(m)) {
      this.warn(`not a JSON object from the server: ${shorten(text)}`);
      return;
    }
    const type = m['type'];
    if (type === 'fired') {
      this.deliver(m as unknown as Firing);
    } else if (type === 'subscribed') {
      this.backoff.reset();
      if (this.seq < 0 && this.cursor === undefined) {
        // a live start: a resume continues after the server's position at that time (a cluster sends no seq)
        if (typeof m['cursor'] === 'string') {
          this.cursor = m['cursor'];
        } else {
          this.seq = typeof m['seq'] === 'number' ? m['seq'] : 0;
        }
      }
      this.ready.resolve();
    } else if (type === 'gap' || (type === 'error' && m['code'] === 'gap')) {
      this.warn(`firings trimmed before they could be delivered: ${shorten(text)}`);
    } else if (type === 'error') {
      this.warn(`subscribe refused, retrying: ${shorten(text)}`);
      socket.close(1000);
    }
  }

  private deliver(f: Firing): void {
    const seq = typeof f.seq === 'number' ? f.seq : -1;
    const partitioned = f.partition !== undefined;
    if (!partitioned && seq >= 0 && seq <= this.seq) {
      return; // delivered before a reconnect
    }
    if (!partitioned) {
      this.seq = seq;
    }
    if (typeof f.cursor === 'string') {
      this.cursor = f.cursor;
    }
    try {
      this.handler(f);
    } catch (e) {
      this.warn(`subscription handler failed on firing seq ${seq}: ${String(e)}`);
    }
  }

  private retryLater(): void {
    if (this.closed || this.retryTimer !== undefined) {
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, this.backoff.next());
  }

  close(): Promise<void> {
    if (this.closing !== undefined) {
      return this.closing;
    }
    this.closed = true;
    this.ready.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the subscription was closed', false));
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = undefined;
    this.closing = ws === undefined ? Promise.resolve() : new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.platform.abort(ws), Math.min(1_000, this.o.connectTimeoutMs));
      ws.onclose = () => {
        clearTimeout(timer);
        resolve();
      };
      ws.onmessage = null;
      if (ws.readyState === 0) {
        this.platform.abort(ws);
      } else {
        ws.close(1000);
      }
    });
    return this.closing;
  }
}
