import { ErrorCodes, TickwheelError } from '../errors.js';
import type { TimerInfo } from '../types.js';
import { batchResults, isObject, shorten, timerOf } from './answers.js';
import { ReconnectBackoff } from './backoff.js';
import { Deferred, nextTurn, now } from './deferred.js';
import { Fifo } from './fifo.js';
import type { HttpCalls } from './http-calls.js';
import type { PartitionMap } from './partition-map.js';
import { TransportFailure } from './platform.js';
import type { ResolvedOptions } from '../options.js';

const PATH = '/v1/timers/batch';

/** One waiting or sent schedule: the timer's JSON text, the caller's promise, its deadline (monotonic ms). */
interface Schedule {
  readonly json: string;
  /** The timer's id, if the caller gave one (it decides the owner). */
  readonly id: string | undefined;
  readonly d: Deferred<TimerInfo>;
  readonly deadline: number;
}

/**
 * Sends schedules as batch creates (`POST /v1/timers/batch`, `{"timers":[…]}`). On the server a timer of a batch
 * costs a fraction of a single create (one store write and one HTTP exchange per batch).
 *
 * Where: to the endpoint in use; a client given several endpoints (a cluster) splits each batch by the owner of its
 * timers' ids (`PartitionMap`) and sends each part to its owner (no id, or an unknown owner: the endpoint in use,
 * which forwards what it does not own). Each part is a request of its own.
 *
 * When: schedules wait in call order; a flush runs once per event-loop turn after a schedule arrives and whenever a
 * batch is answered. It sends the oldest as a batch of half the schedules outstanding (waiting plus in flight; at
 * least 1, at most `maxScheduleBatchTimers`) while fewer than `maxScheduleBatchesInFlight` requests are unanswered;
 * with a request unanswered, a batch is sent only once that many wait, else they gather until the next answer. So
 * callers keeping C schedules in flight get about two batches of C/2 in flight (one worked on by the server while the
 * other is answered), not many small ones; a burst beyond twice the largest batch goes out in full batches, up to
 * `maxScheduleBatchesInFlight` at once. An idle client sends a lone schedule at once (one turn later); a schedule
 * waits at most until a request in flight is answered or fails.
 *
 * Answers per item, as the single create would have answered: 201 resolves with the timer; any other item status
 * rejects with that item's error (409 `already_exists`, 400 naming the field, ...). A non-200 answer to the whole
 * request rejects all of its schedules with it. A schedule is never sent twice: a request that could not be sent
 * (no connection) is tried again after the reconnect backoff while its schedules' deadline has not passed; one sent
 * and not answered rejects its schedules with `timeout` or `connection_lost`, `mayHaveApplied`. A sweep rejects
 * schedules past their deadline, waiting (`timeout`, not applied) or sent (`timeout`, `mayHaveApplied`). At most
 * `maxQueued` schedules wait; beyond it a schedule is rejected at once with `queue_full`.
 */
export class ScheduleBatcher {
  private readonly waiting = new Fifo<Schedule>();
  private readonly sent = new Set<Schedule[]>();
  private inFlightTimers = 0;
  private flushScheduled = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private lastFailure: string | undefined;
  private readonly backoff: ReconnectBackoff;
  private readonly sweepMs: number;
  /** Batch requests sent so far. */
  batches = 0;

  constructor(private readonly http: HttpCalls, private readonly o: ResolvedOptions,
    private readonly owners: PartitionMap) {
    this.backoff = new ReconnectBackoff(o.reconnectInitialBackoffMs, o.reconnectMaxBackoffMs);
    this.sweepMs = Math.max(5, Math.min(1_000, Math.floor(o.requestTimeoutMs / 4)));
  }

  /** Schedules waiting for a batch. */
  queued(): number {
    return this.waiting.length;
  }

  /** Schedules in batches sent and not yet answered. */
  inFlight(): number {
    return this.inFlightTimers;
  }

  /** A schedule of the timer whose JSON text is `json` (and id `id`, if it has one). */
  schedule(json: string, id?: string): Promise<TimerInfo> {
    if (this.closed) {
      return Promise.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the client is closed', false));
    }
    if (this.queued() >= this.o.maxQueued) {
      return Promise.reject(TickwheelError.client(ErrorCodes.QUEUE_FULL, `schedule not sent: ${this.inFlightTimers} `
        + `schedules in flight and ${this.queued()} waiting (maxQueued ${this.o.maxQueued})`, false));
    }
    const s: Schedule = { json, id, d: new Deferred<TimerInfo>(), deadline: now() + this.o.requestTimeoutMs };
    this.waiting.push(s);
    this.ensureSweep();
    this.scheduleFlush();
    return s.d.promise;
  }

  private scheduleFlush(): void {
    if (!this.flushScheduled && this.retryTimer === undefined) {
      this.flushScheduled = true;
      nextTurn(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (this.retryTimer !== undefined || this.closed) {
      return;
    }
    const t = now();
    while (this.sent.size < this.o.maxScheduleBatchesInFlight && this.queued() > 0) {
      const size = this.shareSize();
      if (this.sent.size > 0 && this.queued() < size) {
        return;
      }
      const batch: Schedule[] = [];
      while (batch.length < size && this.queued() > 0) {
        const s = this.waiting.shift()!;
        if (t >= s.deadline) {
          s.d.reject(this.notSentTimeout());
        } else if (!s.d.done) {
          batch.push(s);
        }
      }
      if (batch.length > 0) {
        this.send(batch);
      }
    }
  }

  /**
   * The size of the next batch: half of the schedules outstanding (waiting and in flight), at least 1 and at most
   * `maxScheduleBatchTimers`. Two batches share what callers keep in flight, so one is answered while the other is
   * worked on, and each costs its request once for that many timers.
   */
  private shareSize(): number {
    return Math.min(this.o.maxScheduleBatchTimers,
      Math.max(1, Math.floor((this.queued() + this.inFlightTimers + 1) / 2)));
  }

  /** Sends `batch`: in a cluster, one request per owner of its timers' ids (no id: the endpoint in use). */
  private send(batch: Schedule[]): void {
    if (!this.owners.enabled) {
      this.sendTo(undefined, batch);
      return;
    }
    const byOwner = new Map<string | undefined, Schedule[]>();
    for (const s of batch) {
      const owner = this.owners.ownerOf(s.id);
      const part = byOwner.get(owner);
      if (part === undefined) {
        byOwner.set(owner, [s]);
      } else {
        part.push(s);
      }
    }
    for (const [owner, part] of byOwner) {
      this.sendTo(owner, part);
    }
  }

  private sendTo(owner: string | undefined, batch: Schedule[]): void {
    let body = '{"timers":[';
    for (let i = 0; i < batch.length; i++) {
      body += (i === 0 ? '' : ',') + batch[i]!.json;
    }
    body += ']}';
    this.sent.add(batch);
    this.inFlightTimers += batch.length;
    this.batches++;
    const timeoutMs = Math.max(1, Math.ceil(batch[batch.length - 1]!.deadline - now()));
    this.http.send('POST', PATH, body, timeoutMs, owner).then((answer) => {
      this.backoff.reset();
      if (answer.status === 503) {
        this.owners.stale();
      }
      this.answered(batch, answer.status, answer.body);
    }, (e: unknown) => {
      this.lastFailure = e instanceof Error ? e.message : String(e);
      if (e instanceof TransportFailure && !e.sent) {
        this.owners.failed(owner);
        this.notSent(batch);
      } else {
        this.failSent(batch, e);
      }
    }).finally(() => {
      this.sent.delete(batch);
      this.inFlightTimers -= batch.length;
      this.flush();
    });
  }

  /** Settles each schedule of `batch` from its item of the answer (or all from a non-200 answer). */
  private answered(batch: Schedule[], status: number, text: string): void {
    const results = batchResults(PATH, batch.length, 'timers', status, text, (e) => batch.forEach((s) => s.d.reject(e)));
    if (results === undefined) {
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const s = batch[i]!;
      const item = results[i];
      if (!isObject(item)) {
        s.d.reject(TickwheelError.client(ErrorCodes.PROTOCOL, `POST ${PATH}: result ${i} is not an object: `
          + shorten(JSON.stringify(item)), true));
        continue;
      }
      try {
        s.d.resolve(timerOf(item));
      } catch (e) {
        s.d.reject(e);
      }
    }
  }

  /** A request sent and not answered: its schedules may have been created; never sent again. */
  private failSent(batch: Schedule[], e: unknown): void {
    const timedOut = e instanceof TransportFailure && e.timedOut;
    const message = e instanceof Error ? e.message : String(e);
    for (const s of batch) {
      s.d.reject(TickwheelError.client(timedOut ? ErrorCodes.TIMEOUT : ErrorCodes.CONNECTION_LOST,
        `schedule: the batch create was sent and not answered (${message}); it may have been applied: read the `
        + 'timer before scheduling it again', true));
    }
  }

  /** A request that could not be sent: its schedules wait again, first in line, and the next try waits. */
  private notSent(batch: Schedule[]): void {
    if (this.closed) {
      const e = TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'schedule: the client was closed before it was sent',
        false);
      batch.forEach((s) => s.d.reject(e));
      return;
    }
    this.waiting.unshiftAll(batch);
    if (this.retryTimer === undefined) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.flush();
      }, this.backoff.next());
    }
  }

  private ensureSweep(): void {
    if (this.sweepTimer === undefined && !this.closed) {
      this.sweepTimer = setInterval(() => this.sweep(), this.sweepMs);
    }
  }

  /** Rejects schedules past their deadline; stops itself when nothing waits or is in flight. */
  private sweep(): void {
    const t = now();
    // waiting schedules are in deadline order (a batch put back keeps its place ahead of later ones)
    for (let s = this.waiting.peek(); s !== undefined && (s.d.done || t >= s.deadline); s = this.waiting.peek()) {
      this.waiting.shift();
      s.d.reject(this.notSentTimeout());
    }
    for (const batch of this.sent) {
      for (const s of batch) {
        if (!s.d.done && t >= s.deadline) {
          s.d.reject(TickwheelError.client(ErrorCodes.TIMEOUT, `schedule: no answer within requestTimeoutMs `
            + `${this.o.requestTimeoutMs} (sent: it may have been applied)`, true));
        }
      }
    }
    if (this.queued() === 0 && this.sent.size === 0) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  private notSentTimeout(): TickwheelError {
    return TickwheelError.client(ErrorCodes.TIMEOUT, `schedule: not sent within requestTimeoutMs `
      + `${this.o.requestTimeoutMs} (not applied)${this.lastFailure === undefined ? '' : `; last failure: ${this.lastFailure}`}`,
      false);
  }

  /** Rejects every schedule, waiting (`client_closed`, not applied) or in flight (`client_closed`, `mayHaveApplied`). */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.retryTimer);
    const e = TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'schedule: the client was closed before it was sent',
      false);
    for (const s of this.waiting.drain()) {
      s.d.reject(e);
    }
    const sentE = TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'schedule: the client was closed before its answer; '
      + 'it may have been applied', true);
    for (const batch of this.sent) {
      batch.forEach((s) => s.d.reject(sentE));
    }
  }
}
