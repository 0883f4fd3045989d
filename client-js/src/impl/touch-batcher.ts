import { ErrorCodes, TickwheelError } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { batchResults, errorOf, isObject, shorten, statusOf } from './answers.js';
import { ReconnectBackoff } from './backoff.js';
import { Deferred, nextTurn, now } from './deferred.js';
import type { HttpCalls } from './http-calls.js';
import type { PartitionMap } from './partition-map.js';

const PATH = '/v1/timers/touch';

/** One waiting or sent touch of a key (id, delayMs): the callers' promise and the deadline of its first caller. */
interface Touch {
  readonly id: string;
  /** -1: the timer's own countdown. */
  readonly delayMs: number;
  readonly key: string;
  readonly d: Deferred<number>;
  readonly deadline: number;
}

/**
 * Sends touches as batch touches (`POST /v1/timers/touch`, `{"ids":[…],"delayMs"?}`).
 *
 * Touches wait in one group per `delayMs` (-1: each timer's own); a flush runs once per event-loop turn after a
 * touch arrives and whenever a batch is answered, and sends each group's oldest ids, at most `maxTouchBatchIds` per
 * request, while fewer than `maxTouchBatchesInFlight` requests are unanswered. Per (id, delayMs): a touch joins the
 * one that waits (not yet sent); while one is in a batch in flight, it becomes (or joins) that key's single
 * follow-up, which waits until the batch is answered. So every caller is answered by a touch sent after its call,
 * and a touch storm on one key costs at most one id in flight and one waiting.
 *
 * Answers per item: 200 resolves with `nextDueAt`; any other item status rejects with that item's error (404
 * `not_found`; 503 `unavailable`, `mayHaveApplied` as its message says). A non-200 answer to the whole request
 * rejects all of its touches with it. A request with no answer is sent again (touches are idempotent in effect),
 * after the reconnect backoff, with the touches whose deadline has not passed; the others fail with `timeout`,
 * `mayHaveApplied`. A sweep rejects waiting touches past their deadline. At most `maxQueued` keys wait (follow-ups
 * included); beyond it a touch is rejected with `queue_full`.
 */
export class TouchBatcher {
  /** Waiting touches per delayMs, each in arrival order (Maps keep insertion order). */
  private readonly waiting = new Map<number, Map<string, Touch>>();
  /** Keys in a batch in flight. */
  private readonly sent = new Set<string>();
  /** The follow-up of a key in `sent`. */
  private readonly followUps = new Map<string, Touch>();
  private readonly inFlightBatches = new Set<Touch[]>();
  private waitingCount = 0;
  private inFlightIds = 0;
  private flushScheduled = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private lastFailure: string | undefined;
  private readonly backoff: ReconnectBackoff;
  private readonly sweepMs: number;
  /** Touches merged into another caller's touch so far. */
  merged = 0;
  /** Batch requests sent so far (retries included). */
  batches = 0;

  constructor(private readonly http: HttpCalls, private readonly o: ResolvedOptions,
    private readonly owners: PartitionMap) {
    this.backoff = new ReconnectBackoff(o.reconnectInitialBackoffMs, o.reconnectMaxBackoffMs);
    this.sweepMs = Math.max(5, Math.min(1_000, Math.floor(o.requestTimeoutMs / 4)));
  }

  /** Touches waiting for a batch (follow-ups included). */
  queued(): number {
    return this.waitingCount + this.followUps.size;
  }

  /** Touches in batches sent and not yet answered. */
  inFlight(): number {
    return this.inFlightIds;
  }

  /** A touch of `id` (`delayMs` -1: the timer's own countdown): its new `nextDueAt`, epoch ms. */
  touch(id: string, delayMs: number): Promise<number> {
    if (this.closed) {
      return Promise.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'the client is closed', false));
    }
    const key = `${delayMs}\u0000${id}`;
    const w = this.waiting.get(delayMs)?.get(id);
    if (w !== undefined) {
      this.merged++;
      return w.d.promise;
    }
    const inFlight = this.sent.has(key);
    if (inFlight) {
      const f = this.followUps.get(key);
      if (f !== undefined) {
        this.merged++;
        return f.d.promise;
      }
    }
    if (this.queued() >= this.o.maxQueued) {
      return Promise.reject(TickwheelError.client(ErrorCodes.QUEUE_FULL, `touch ${id} not sent: ${this.inFlightIds} `
        + `touches in flight and ${this.queued()} waiting (maxQueued ${this.o.maxQueued})`, false));
    }
    const t: Touch = { id, delayMs, key, d: new Deferred<number>(), deadline: now() + this.o.requestTimeoutMs };
    if (inFlight) {
      this.followUps.set(key, t);
    } else {
      this.enqueue(t);
    }
    this.ensureSweep();
    this.scheduleFlush();
    return t.d.promise;
  }

  private enqueue(t: Touch): void {
    let group = this.waiting.get(t.delayMs);
    if (group === undefined) {
      group = new Map();
      this.waiting.set(t.delayMs, group);
    }
    group.set(t.id, t);
    this.waitingCount++;
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

  /** Sends waiting touches while a batch slot is free. */
  private flush(): void {
    if (this.retryTimer !== undefined || this.closed) {
      return;
    }
    const t0 = now();
    while (this.inFlightBatches.size < this.o.maxTouchBatchesInFlight && this.waiting.size > 0) {
      const [delayMs, group] = this.waiting.entries().next().value as [number, Map<string, Touch>];
      const batch: Touch[] = [];
      for (const [id, t] of group) {
        if (batch.length >= this.o.maxTouchBatchIds) {
          break;
        }
        group.delete(id);
        this.waitingCount--;
        if (t0 >= t.deadline) {
          t.d.reject(this.timeout(t, false));
        } else if (!t.d.done) {
          batch.push(t);
        }
      }
      if (group.size === 0) {
        this.waiting.delete(delayMs);
      }
      if (batch.length > 0) {
        this.send(delayMs, batch);
      }
    }
  }

  /** Sends `batch`: in a cluster, one request per owner of its ids (an unknown owner: the endpoint in use). */
  private send(delayMs: number, batch: Touch[]): void {
    if (!this.owners.enabled) {
      this.sendTo(undefined, delayMs, batch);
      return;
    }
    const byOwner = new Map<string | undefined, Touch[]>();
    for (const t of batch) {
      const owner = this.owners.ownerOf(t.id);
      const part = byOwner.get(owner);
      if (part === undefined) {
        byOwner.set(owner, [t]);
      } else {
        part.push(t);
      }
    }
    for (const [owner, part] of byOwner) {
      this.sendTo(owner, delayMs, part);
    }
  }

  private sendTo(owner: string | undefined, delayMs: number, batch: Touch[]): void {
    const ids: string[] = [];
    for (const t of batch) {
      ids.push(t.id);
      this.sent.add(t.key);
    }
    const body = JSON.stringify(delayMs >= 0 ? { ids, delayMs } : { ids });
    this.inFlightBatches.add(batch);
    this.inFlightIds += batch.length;
    this.batches++;
    let latest = 0;
    for (const t of batch) {
      latest = Math.max(latest, t.deadline);
    }
    this.http.send('POST', PATH, body, Math.max(1, Math.ceil(latest - now())), owner).then((answer) => {
      this.backoff.reset();
      if (answer.status === 503) {
        this.owners.stale();
      }
      this.answered(batch, answer.status, answer.body);
    }, (e: unknown) => {
      this.lastFailure = e instanceof Error ? e.message : String(e);
      this.owners.failed(owner);
      this.unanswered(batch);
    }).finally(() => {
      this.inFlightBatches.delete(batch);
      this.inFlightIds -= batch.length;
      for (const t of batch) {
        this.release(t);
      }
      this.flush();
    });
  }

  /** Settles each touch of `batch` from its item of the answer (or all from a non-200 answer). */
  private answered(batch: Touch[], status: number, text: string): void {
    const results = batchResults(PATH, batch.length, 'ids', status, text, (e) => batch.forEach((t) => t.d.reject(e)));
    if (results === undefined) {
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const t = batch[i]!;
      const item = results[i];
      if (!isObject(item) || item['id'] !== t.id) {
        t.d.reject(TickwheelError.client(ErrorCodes.PROTOCOL, `POST ${PATH}: result ${i} is not the one of id ${t.id}: `
          + shorten(JSON.stringify(item)), true));
        continue;
      }
      const s = statusOf(item);
      const next = item['nextDueAt'];
      if (s === 200 && typeof next === 'number') {
        t.d.resolve(next);
      } else if (s === 200) {
        t.d.reject(TickwheelError.client(ErrorCodes.PROTOCOL, `POST ${PATH}: result of ${t.id} is 200 without `
          + 'nextDueAt', true));
      } else {
        t.d.reject(errorOf(s, item['error']));
      }
    }
  }

  /**
   * `batch` got no answer: its touches still within their deadline wait again (ahead of the others of their
   * delayMs), and the next batch goes after the backoff; the rest fail with `timeout`.
   */
  private unanswered(batch: Touch[]): void {
    const t0 = now();
    const again: Touch[] = [];
    for (const t of batch) {
      if (t.d.done) {
        continue;
      }
      if (this.closed) {
        t.d.reject(TickwheelError.client(ErrorCodes.CLIENT_CLOSED, `touch ${t.id}: the client was closed before its `
          + 'answer; it may have been applied', true));
      } else if (t0 >= t.deadline) {
        t.d.reject(this.timeout(t, true));
      } else {
        again.push(t);
      }
    }
    if (again.length === 0) {
      return;
    }
    const delayMs = again[0]!.delayMs;
    const old = this.waiting.get(delayMs);
    const group = new Map<string, Touch>();
    for (const t of again) {
      const joined = old?.get(t.id);
      if (joined !== undefined) { // a later touch of the key waits already: the retry answers both
        old!.delete(t.id);
        this.waitingCount--;
        joined.d.follow(t.d.promise);
      }
      group.set(t.id, t);
      this.waitingCount++;
    }
    if (old !== undefined) {
      for (const [id, t] of old) {
        group.set(id, t);
      }
    }
    this.waiting.delete(delayMs);
    // the retried group goes first
    const rest = [...this.waiting];
    this.waiting.clear();
    this.waiting.set(delayMs, group);
    for (const [k, v] of rest) {
      this.waiting.set(k, v);
    }
    if (this.retryTimer === undefined && !this.closed) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.flush();
      }, this.backoff.next());
    }
  }

  /** `t`'s batch was answered: its key's follow-up, if any, waits for the next batch. */
  private release(t: Touch): void {
    if (!this.sent.delete(t.key)) {
      return;
    }
    const f = this.followUps.get(t.key);
    if (f === undefined) {
      return;
    }
    this.followUps.delete(t.key);
    const w = this.waiting.get(t.delayMs)?.get(t.id);
    if (w !== undefined) { // a retried touch of the key waits already: it answers the follow-up too
      f.d.follow(w.d.promise);
    } else {
      this.enqueue(f);
      this.scheduleFlush();
    }
  }

  private ensureSweep(): void {
    if (this.sweepTimer === undefined && !this.closed) {
      this.sweepTimer = setInterval(() => this.sweep(), this.sweepMs);
    }
  }

  /** Rejects touches past their deadline; stops itself when nothing waits or is in flight. */
  private sweep(): void {
    const t0 = now();
    for (const [delayMs, group] of this.waiting) {
      for (const [id, t] of group) {
        if (t.d.done || t0 >= t.deadline) {
          group.delete(id);
          this.waitingCount--;
          t.d.reject(this.timeout(t, false));
        }
      }
      if (group.size === 0) {
        this.waiting.delete(delayMs);
      }
    }
    for (const [key, t] of this.followUps) {
      if (t0 >= t.deadline) {
        this.followUps.delete(key);
        t.d.reject(this.timeout(t, false));
      }
    }
    for (const batch of this.inFlightBatches) {
      for (const t of batch) {
        if (!t.d.done && t0 >= t.deadline) {
          t.d.reject(this.timeout(t, true));
        }
      }
    }
    if (this.waiting.size === 0 && this.followUps.size === 0 && this.inFlightBatches.size === 0) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  private timeout(t: Touch, sent: boolean): TickwheelError {
    return TickwheelError.client(ErrorCodes.TIMEOUT, `touch ${t.id}: no answer within requestTimeoutMs `
      + `${this.o.requestTimeoutMs}${sent ? ' (sent: it may have been applied)' : ' (not sent)'}`
      + (this.lastFailure === undefined ? '' : `; last failure: ${this.lastFailure}`), sent);
  }

  /** Rejects every touch with `client_closed` (`mayHaveApplied` for those in flight). */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.retryTimer);
    const e = TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'touch: the client was closed before it was sent', false);
    for (const group of this.waiting.values()) {
      group.forEach((t) => t.d.reject(e));
    }
    this.waiting.clear();
    this.waitingCount = 0;
    this.followUps.forEach((t) => t.d.reject(e));
    this.followUps.clear();
    const sentE = TickwheelError.client(ErrorCodes.CLIENT_CLOSED, 'touch: the client was closed before its answer; '
      + 'it may have been applied', true);
    for (const batch of this.inFlightBatches) {
      batch.forEach((t) => t.d.reject(sentE));
    }
  }
}
