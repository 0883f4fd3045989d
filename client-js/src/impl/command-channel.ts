import { ErrorCodes, TickwheelError } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { decode, errorOf, isObject, shorten } from './answers.js';
import { ReconnectBackoff } from './backoff.js';
import { Deferred, now } from './deferred.js';
import { Endpoints } from './endpoints.js';
import { Fifo } from './fifo.js';
import { OPEN, type Platform, type SocketLike } from './platform.js';

/** Bytes buffered on the socket beyond which no further command is written until it drains. */
const HIGH_WATER_BYTES = 1 << 20;

/** One WebSocket command: its op and fields, whether it is written again after a disconnect, its deadline. */
export class Command {
  readonly d = new Deferred<Record<string, unknown>>();
  /** True while written on the current connection and not answered. */
  written = false;

  constructor(readonly op: string, private readonly fields: string, readonly retryable: boolean,
    readonly deadline: number) {}

  /** The text frame with `ref`; `fields` is the JSON of the other members, without braces. */
  frame(ref: string): string {
    return `{"op":"${this.op}","ref":"${ref}",${this.fields}}`;
  }
}

/**
 * The client's one command WebSocket (`/v1/ws`, opened at the first command): writes commands with fresh refs
 * (pipelined, at most `maxInFlight` unanswered, none while the socket buffers more than 1 MiB), matches `result`
 * messages to them by ref in whatever order they come, queues at most `maxQueued` beyond that, reconnects with
 * backoff while anything waits, writes retryable in-flight commands again after a disconnect, ahead of the queue
 * (others fail with `connection_lost`), and fails what passes its deadline with `timeout` (a sweep while anything is
 * pending). A socket that answers nothing for `idleTimeoutMs` while commands are in flight is taken for dead and
 * replaced.
 *
 * A channel to a partition's owner (`CommandRouter`) is given an `unreachable` hand-off: when a connection to the
 * owner cannot be made, the commands waiting for it (retried ones included) are handed off instead of waiting for a
 * reconnect, and the channel waits until it is given commands again.
 */
export class CommandChannel {
  private readonly inFlightMap = new Map<string, Command>();
  private readonly queue = new Fifo<Command>();
  private ws: SocketLike | undefined;
  /** The socket being opened, if any. */
  private opening: SocketLike | undefined;
  private connecting = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private nextRef = 0;
  private closed = false;
  private lastConnectFailure: string | undefined;
  private lastHeard = 0;
  private readonly backoff: ReconnectBackoff;
  private readonly sweepMs: number;
  /** Connections opened so far. */
  connections = 0;

  /**
   * @param unreachable given the waiting commands (not settled, in order) when a connection cannot be made; without
   *     it they wait for a reconnect after the backoff
   */
  constructor(private readonly platform: Platform, private readonly endpoints: Endpoints,
    private readonly o: ResolvedOptions, private readonly unreachable?: (waiting: Command[]) => void) {
    this.backoff = new ReconnectBackoff(o.reconnectInitialBackoffMs, o.reconnectMaxBackoffMs);
    this.sweepMs = Math.max(5, Math.min(1_000, Math.floor(o.requestTimeoutMs / 4)));
  }

  inFlight(): number {
    return this.inFlightMap.size;
  }

  queued(): number {
    return this.queue.length;
  }

  /** A deadline `requestTimeoutMs` from now. */
  deadline(): number {
    return now() + this.o.requestTimeoutMs;
  }

  /** Writes `c` now if a slot is free, else queues it, else rejects it with `queue_full`. */
  submit(c: Command): Promise<Record<string, unknown>> {
    if (this.closed) {
      c.d.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the client is closed', false));
      return c.d.promise;
    }
    if (this.queue.length === 0 && this.canWrite()) {
      this.write(c);
    } else if (this.queue.length >= this.o.maxQueued) {
      this.ensureConnected(); // with maxQueued 0, calls before the connection is open fail, and open it
      c.d.reject(TickwheelError.client(ErrorCodes.QUEUE_FULL, `not sent: ${this.inFlightMap.size} commands in flight `
        + `(maxInFlight ${this.o.maxInFlight}) and ${this.queue.length} queued (maxQueued ${this.o.maxQueued})`, false));
      return c.d.promise;
    } else {
      this.queue.push(c);
      this.ensureConnected();
    }
    this.ensureSweep();
    return c.d.promise;
  }

  private canWrite(): boolean {
    const ws = this.ws;
    return ws !== undefined && ws.readyState === OPEN && this.inFlightMap.size < this.o.maxInFlight
      && ws.bufferedAmount < HIGH_WATER_BYTES;
  }

  private write(c: Command): void {
    const ref = (this.nextRef++).toString(36);
    if (this.inFlightMap.size === 0) {
      this.lastHeard = now(); // the idle clock starts with the first command awaiting an answer
    }
    c.written = true;
    this.inFlightMap.set(ref, c);
    this.ws!.send(c.frame(ref));
  }

  private pump(): void {
    while (this.queue.length > 0 && this.canWrite()) {
      const c = this.queue.shift()!;
      if (!c.d.done) {
        this.write(c);
      }
    }
  }

  private ensureConnected(): void {
    if (this.ws !== undefined || this.connecting || this.closed || this.reconnectTimer !== undefined) {
      return;
    }
    this.connecting = true;
    const base = this.endpoints.current();
    let socket: SocketLike;
    try {
      socket = this.platform.webSocket(Endpoints.ws(base), this.o.token, this.o.connectTimeoutMs);
    } catch (e) {
      this.connecting = false;
      this.connectFailed(base, String(e));
      return;
    }
    this.opening = socket;
    const connectTimer = setTimeout(() => {
      this.platform.abort(socket);
    }, this.o.connectTimeoutMs);
    let opened = false;
    socket.onopen = () => {
      clearTimeout(connectTimer);
      this.opening = undefined;
      opened = true;
      this.connecting = false;
      if (this.closed) {
        socket.close(1000);
        return;
      }
      this.connections++;
      this.lastConnectFailure = undefined;
      this.backoff.reset();
      this.ws = socket;
      this.lastHeard = now();
      this.pump();
    };
    socket.onmessage = (ev) => {
      if (socket === this.ws) {
        this.onText(ev.data);
      }
    };
    socket.onerror = () => {};
    socket.onclose = (ev) => {
      clearTimeout(connectTimer);
      if (this.opening === socket) {
        this.opening = undefined;
      }
      if (!opened) {
        this.connecting = false;
        this.connectFailed(base, `connect to ${Endpoints.ws(base)} failed (close code ${ev.code})`);
      } else {
        this.onClosed(socket, ev.code);
      }
    };
  }

  private connectFailed(base: string, why: string): void {
    this.lastConnectFailure = why;
    this.endpoints.failed(base);
    if (this.unreachable !== undefined && !this.closed) {
      this.unreachable(this.queue.drain().filter((c) => !c.d.done));
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== undefined || (this.queue.length === 0 && this.inFlightMap.size === 0)) {
      return;
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.queue.length > 0) {
        this.ensureConnected();
      }
    }, this.backoff.next());
  }

  private onText(data: unknown): void {
    this.lastHeard = now();
    const m = decode(typeof data === 'string' ? data : String(data));
    if (!isObject(m)) {
      return;
    }
    const ref = m['ref'];
    if (typeof ref !== 'string') {
      return;
    }
    const c = this.inFlightMap.get(ref);
    if (c !== undefined) { // undefined: timed out before its answer came
      this.inFlightMap.delete(ref);
      if (m['type'] === 'result') {
        c.d.resolve(m);
      } else if (m['type'] === 'error') {
        c.d.reject(errorOf(400, m));
      } else {
        c.d.reject(TickwheelError.client(ErrorCodes.PROTOCOL, `unexpected answer: ${shorten(JSON.stringify(m))}`, true));
      }
    }
    this.pump();
  }

  private onClosed(socket: SocketLike, code: number): void {
    if (socket !== this.ws) {
      return;
    }
    this.ws = undefined;
    if (this.closed) {
      return;
    }
    const t = now();
    const retry: Command[] = [];
    for (const c of this.inFlightMap.values()) {
      c.written = false;
      if (c.d.done) {
        continue;
      }
      if (c.retryable && t < c.deadline) {
        retry.push(c);
      } else {
        c.d.reject(TickwheelError.client(ErrorCodes.CONNECTION_LOST, `${c.op}: the connection closed before its `
          + `answer (code ${code}); it may have been applied`, true));
      }
    }
    this.inFlightMap.clear();
    this.queue.unshiftAll(retry);
    this.scheduleReconnect();
  }

  private ensureSweep(): void {
    if (this.sweepTimer === undefined && !this.closed) {
      this.sweepTimer = setInterval(() => this.sweep(), this.sweepMs);
    }
  }

  private sweep(): void {
    const t = now();
    this.queue.retain((c) => {
      if (c.d.done) {
        return false;
      }
      if (t >= c.deadline) {
        c.d.reject(this.timeout(c, false));
        return false;
      }
      return true;
    });
    for (const [ref, c] of this.inFlightMap) {
      if (c.d.done || t >= c.deadline) {
        this.inFlightMap.delete(ref);
        c.d.reject(this.timeout(c, true));
      }
    }
    const ws = this.ws;
    if (ws !== undefined && this.inFlightMap.size > 0 && t - this.lastHeard >= this.o.idleTimeoutMs) {
      this.platform.abort(ws); // answers nothing: its close handler requeues and reconnects
    }
    if (this.queue.length === 0 && this.inFlightMap.size === 0) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    } else {
      this.pump();
      if (this.ws === undefined) {
        this.ensureConnected();
      }
    }
  }

  private timeout(c: Command, written: boolean): TickwheelError {
    return TickwheelError.client(ErrorCodes.TIMEOUT, `${c.op}: no answer within requestTimeoutMs `
      + `${this.o.requestTimeoutMs}${written ? ' (written: it may have been applied)' : ' (never written)'}`
      + (this.lastConnectFailure === undefined ? '' : `; last connect failure: ${this.lastConnectFailure}`), written);
  }

  /** Rejects everything pending with `client_closed` and closes the socket. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.reconnectTimer);
    for (const c of this.queue.drain()) {
      c.d.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, `${c.op}: the client was closed before it was written`,
        false));
    }
    for (const c of this.inFlightMap.values()) {
      c.d.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, `${c.op}: the client was closed before its answer; `
        + 'it may have been applied', true));
    }
    this.inFlightMap.clear();
    const ws = this.ws;
    this.ws = undefined;
    if (ws !== undefined) {
      ws.close(1000);
    }
    if (this.opening !== undefined) {
      this.platform.abort(this.opening);
    }
  }
}
