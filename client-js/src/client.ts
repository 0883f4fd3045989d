import { TickwheelError } from './errors.js';
import { type ResolvedOptions, type TickwheelClientOptions, resolveOptions } from './options.js';
import type {
  ClusterInfo, Delivery, DeliveryPage, DeliveryState, Firing, From, HealthInfo, TimerInfo, TimerPage, TimerRequest,
  TopicInfo, TopicPage, WheelInfo,
} from './types.js';
import { decode, errorOf, isObject, statusOf, timerOf } from './impl/answers.js';
import { Command } from './impl/command-channel.js';
import { CommandRouter } from './impl/command-router.js';
import { Endpoints } from './impl/endpoints.js';
import { HttpCalls, type OwnerRoute, transportError } from './impl/http-calls.js';
import type { Platform } from './impl/platform.js';
import { PartitionMap } from './impl/partition-map.js';
import { ScheduleBatcher } from './impl/schedule-batcher.js';
import { type Subscription, SubscriptionImpl } from './impl/subscription.js';
import { TouchBatcher } from './impl/touch-batcher.js';

/** Counters for tests and load tools. */
export interface ClientStats {
  /** Batch create requests sent. */
  scheduleBatches: number;
  /** Batch touch requests sent (retries included). */
  touchBatches: number;
  /** Touches merged into another caller's touch. */
  mergedTouches: number;
  /** Command WebSocket connections opened. */
  commandConnections: number;
  /** Reads of a cluster's partition map (`GET /v1/cluster`; only a client given several endpoints reads it). */
  partitionMapReads: number;
  /** Whether the partition map has been read (then schedules and touches go to each timer's owner). */
  partitionMapLoaded: boolean;
}

/**
 * A client of one tickwheel server, or of the nodes of a cluster. Its semantics are the Java client's
 * (`io.tickwheel.client.TickwheelClient`); see the README of this package.
 *
 * - `schedule` goes as batch creates (`POST /v1/timers/batch`) of half the schedules outstanding: while a request is
 *   out, later schedules gather until that many wait or an answer comes (about two requests in flight for callers
 *   keeping many schedules in flight); each caller is answered from its own item.
 * - `touch` goes as batch touches (`POST /v1/timers/touch`), merged per (id, delayMs).
 * - `put` and `cancel` are pipelined WebSocket commands (`/v1/ws`), retried after a disconnect (idempotent in
 *   effect).
 * - Reads and actions are one HTTP request each, never retried once sent.
 * - Given several endpoints (a cluster), every call about one timer goes to the timer's owner by the cluster's
 *   partition map (`GET /v1/cluster`): batches split by owner, one command WebSocket per owner, reads and actions
 *   of a timer to its owner; an owner that cannot be reached, or is not known, leaves the call to the endpoint in
 *   use, which forwards it.
 * - Every promise settles within `requestTimeoutMs` (a sweep runs every quarter of it, at most every second), and
 *   `close()` settles all of them.
 */
export class TickwheelClientBase {
  /** The options in force, defaults filled in. */
  readonly options: ResolvedOptions;
  private readonly platform: Platform;
  private readonly endpoints: Endpoints;
  private readonly http: HttpCalls;
  private readonly schedules: ScheduleBatcher;
  private readonly touches: TouchBatcher;
  private readonly owners: PartitionMap;
  private readonly channel: CommandRouter;
  private readonly subscriptions = new Set<SubscriptionImpl>();
  private closed = false;
  private closing: Promise<void> | undefined;

  /** @throws RangeError or TypeError naming a bad option */
  protected constructor(options: TickwheelClientOptions | undefined, platform: (o: ResolvedOptions) => Platform) {
    this.options = resolveOptions(options);
    this.platform = platform(this.options);
    this.endpoints = new Endpoints(this.options.endpoints);
    this.http = new HttpCalls(this.platform, this.endpoints, this.options.token, this.options.requestTimeoutMs);
    this.owners = new PartitionMap(this.http, this.options.endpoints.length > 1);
    this.schedules = new ScheduleBatcher(this.http, this.options, this.owners);
    this.touches = new TouchBatcher(this.http, this.options, this.owners);
    this.channel = new CommandRouter(this.platform, this.endpoints, this.options, this.owners);
  }

  /**
   * Creates a timer (an item of a batch create, answered as `POST /v1/timers`): the stored timer (201), or a
   * {@link TickwheelError}: 409 `already_exists` if its id exists, 400 `invalid_argument` naming the field, 429 ….
   * Never sent twice: a batch that could not be sent (no connection) is tried again until the request timeout; one
   * sent and not answered fails with `timeout` or `connection_lost`, `mayHaveApplied` true.
   */
  schedule(timer: TimerRequest): Promise<TimerInfo> {
    let json: string;
    try {
      json = encodeTimer(timer);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.schedules.schedule(json, typeof timer.id === 'string' ? timer.id : undefined);
  }

  /**
   * Creates or replaces the timer of `timer.id` (`{"op":"put"}`, as `PUT /v1/timers/{id}`): the stored timer (the
   * server answered 201 created or 200 replaced). Written again after a disconnect until its timeout.
   */
  put(timer: TimerRequest): Promise<TimerInfo> {
    if (!isObject(timer) || typeof timer.id !== 'string') {
      return Promise.reject(new TickwheelError(400, 'invalid_argument', 'id', 'put needs the timer\'s id: id is required',
        false));
    }
    let json: string;
    try {
      json = encodeTimer(timer);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.channel.submit(timer.id, new Command('put', `"timer":${json}`, true, this.channel.deadline()))
      .then(timerOf)
      .catch((e: unknown) => { throw timerField(e); });
  }

  /**
   * Restarts the countdown of timer `id` with `delayMs` (≥ 0), or with its own `delayMs` (once) or `periodMs`
   * (periodic) when omitted, sent in a batch touch: the timer's new `nextDueAt` (epoch ms), or 404 `not_found`,
   * 503 `unavailable`. Merged with other touches of the same id and delayMs; on success the countdown was restarted
   * no earlier than this call.
   */
  touch(id: string, delayMs?: number): Promise<number> {
    if (delayMs !== undefined && (!Number.isSafeInteger(delayMs) || delayMs < 0)) {
      return Promise.reject(new TickwheelError(400, 'invalid_argument', 'delayMs',
        `delayMs must be an integer >= 0, was ${String(delayMs)}`, false));
    }
    if (typeof id !== 'string') {
      return Promise.reject(new TickwheelError(400, 'invalid_argument', 'id', `id must be a string, was ${typeof id}`,
        false));
    }
    return this.touches.touch(id, delayMs ?? -1);
  }

  /** Cancels timer `id` (`{"op":"cancel"}`, as `DELETE`): resolves on 204; 404 `not_found` if absent. */
  cancel(id: string): Promise<void> {
    if (typeof id !== 'string') {
      return Promise.reject(new TickwheelError(400, 'invalid_argument', 'id', `id must be a string, was ${typeof id}`,
        false));
    }
    return this.channel.submit(id, new Command('cancel', `"id":${JSON.stringify(id)}`, true, this.channel.deadline()))
      .then((r) => {
        const status = statusOf(r);
        if (status < 200 || status >= 300) {
          throw errorOf(status, r['error']);
        }
      });
  }

  /** `GET /v1/timers/{id}`: the timer, or 404 `not_found`. */
  get(id: string): Promise<TimerInfo> {
    return this.http.json<TimerInfo>('GET', `/v1/timers/${enc(id)}`, false, [200], undefined, this.route(id));
  }

  /**
   * `GET /v1/timers?topic=&limit=&cursor=`: one page ordered by `nextDueAt`; pass its `next` as `cursor` for the
   * following page.
   */
  list(query: { topic?: string; limit?: number; cursor?: string } = {}): Promise<TimerPage> {
    return this.http.json<TimerPage>('GET', `/v1/timers${qs(query)}`, false);
  }

  /** `POST /v1/timers/{id}/pause`: it fires no more until resumed (`paused: true`). The timer, or 404. */
  pause(id: string): Promise<TimerInfo> {
    return this.http.json<TimerInfo>('POST', `/v1/timers/${enc(id)}/pause`, true, [200], undefined, this.route(id));
  }

  /**
   * `POST /v1/timers/{id}/resume`: due times that passed while paused are skipped, except a `once` timer's whose time
   * passed, which fires at once. The timer, or 404.
   */
  resume(id: string): Promise<TimerInfo> {
    return this.http.json<TimerInfo>('POST', `/v1/timers/${enc(id)}/resume`, true, [200], undefined, this.route(id));
  }

  /** `POST /v1/timers/{id}/fire`: one firing now. The timer after it, or 404. Not retried: a second call fires again. */
  fire(id: string): Promise<TimerInfo> {
    return this.http.json<TimerInfo>('POST', `/v1/timers/${enc(id)}/fire`, true, [200], undefined, this.route(id));
  }

  /** `POST /v1/topics/{topic}/pause`, durable: no timer of the topic fires until resumed. 429 at 10,000 paused topics. */
  pauseTopic(topic: string): Promise<TopicInfo> {
    return this.http.json<TopicInfo>('POST', `/v1/topics/${enc(topic)}/pause`, true);
  }

  /** `POST /v1/topics/{topic}/resume`: held-back timers are armed again; missed due times follow `misfire`. */
  resumeTopic(topic: string): Promise<TopicInfo> {
    return this.http.json<TopicInfo>('POST', `/v1/topics/${enc(topic)}/resume`, true);
  }

  /** `GET /v1/topics?topic=&limit=&after=`: topics with pending counts and paused state, by name. */
  listTopics(query: { topic?: string; limit?: number; after?: string } = {}): Promise<TopicPage> {
    return this.http.json<TopicPage>('GET', `/v1/topics${qs(query)}`, false);
  }

  /** `GET /v1/deliveries?state=&limit=&cursor=`: callback deliveries in firing order. */
  listDeliveries(query: { state?: DeliveryState; limit?: number; cursor?: string } = {}): Promise<DeliveryPage> {
    return this.http.json<DeliveryPage>('GET', `/v1/deliveries${qs(query)}`, false);
  }

  /** `GET /v1/deliveries/{id}`: one delivery with its attempts, or 404. */
  getDelivery(id: string): Promise<Delivery> {
    return this.http.json<Delivery>('GET', `/v1/deliveries/${enc(id)}`, false);
  }

  /** `POST /v1/deliveries/{id}/retry`: re-queues a dead delivery (same `webhook-id`); 409 when it is not dead. */
  retryDelivery(id: string): Promise<Delivery> {
    return this.http.json<Delivery>('POST', `/v1/deliveries/${enc(id)}/retry`, true, [202]);
  }

  /** `GET /v1/wheel`: the live wheel. */
  wheel(): Promise<WheelInfo> {
    return this.http.json<WheelInfo>('GET', '/v1/wheel', false);
  }

  /** `GET /v1/cluster`: nodes and partition owners. */
  cluster(): Promise<ClusterInfo> {
    return this.http.json<ClusterInfo>('GET', '/v1/cluster', false);
  }

  /**
   * `GET /health` of the endpoint in use: resolves with `status: "up"` (200) or `status: "recovering"` (503); a
   * failed exchange rejects.
   */
  async health(): Promise<HealthInfo> {
    let answer;
    try {
      answer = await this.http.send('GET', '/health', undefined);
    } catch (e) {
      throw transportError(e, 'GET /health', false);
    }
    const body = decode(answer.body);
    if ((answer.status === 200 || answer.status === 503) && isObject(body) && typeof body['status'] === 'string') {
      return body as HealthInfo;
    }
    throw errorOf(answer.status, body);
  }

  /**
   * Subscribes to the firings of `topics` (`"*"`: all) on a WebSocket of its own, and keeps the subscription alive:
   * see {@link Subscription}. `handler` runs once per firing, in the server's order; an exception it throws is
   * reported (`onWarning`, else `console.warn`) and the next firing is delivered.
   *
   * @param from undefined for only new firings, a seq (every retained firing after it) or a cursor string (a
   *     firing's `cursor`, or a subscription's `lastCursor`)
   * @throws TypeError for bad topics, from or handler
   */
  subscribe(topics: readonly string[], from: From, handler: (firing: Firing) => void,
    onWarning: (message: string) => void = (m) => console.warn(`tickwheel-client: ${m}`)): Subscription {
    const s = new SubscriptionImpl(this.platform, this.endpoints, this.options, topics, from, handler, onWarning);
    if (this.closed) {
      void s.close();
    } else {
      this.subscriptions.add(s);
    }
    return s;
  }

  /** Calls written or sent and not yet answered (a snapshot). */
  inFlight(): number {
    return this.channel.inFlight() + this.touches.inFlight() + this.schedules.inFlight();
  }

  /** Calls waiting for a slot, a batch or the connection (a snapshot). */
  queued(): number {
    return this.channel.queued() + this.touches.queued() + this.schedules.queued();
  }

  /** Where a call about timer `id` goes (its owner, if the partition map knows it). */
  private route(id: string): OwnerRoute | undefined {
    if (!this.owners.enabled || typeof id !== 'string') {
      return undefined;
    }
    const owners = this.owners;
    return { owner: owners.ownerOf(id), failed: (o) => owners.failed(o), stale: () => owners.stale() };
  }

  /** Counters for tests and load tools. */
  stats(): ClientStats {
    return {
      scheduleBatches: this.schedules.batches,
      touchBatches: this.touches.batches,
      mergedTouches: this.touches.merged,
      commandConnections: this.channel.connections,
      partitionMapReads: this.owners.reads,
      partitionMapLoaded: this.owners.loaded,
    };
  }

  /**
   * Closes the command WebSocket, every subscription and the HTTP connections; calls not yet answered reject with
   * `client_closed` (those in flight with `mayHaveApplied` true). Idempotent.
   */
  close(): Promise<void> {
    if (this.closing !== undefined) {
      return this.closing;
    }
    this.closed = true;
    this.http.close();
    this.owners.close();
    this.channel.close();
    this.touches.close();
    this.schedules.close();
    const subs = [...this.subscriptions].map((s) => s.close());
    this.subscriptions.clear();
    this.closing = Promise.all(subs).then(() => this.platform.close());
    return this.closing;
  }
}

/** The timer's JSON text; a value JSON cannot carry (a cycle, a BigInt) is refused as `invalid_argument`. */
function encodeTimer(timer: TimerRequest): string {
  if (!isObject(timer)) {
    throw new TickwheelError(0, 'invalid_argument', undefined, `a timer must be an object, was ${String(timer)}`, false);
  }
  try {
    return JSON.stringify(timer);
  } catch (e) {
    throw new TickwheelError(0, 'invalid_argument', 'payload', `the timer is not JSON: ${(e as Error).message}`, false);
  }
}

/**
 * A command's error names its field inside the command message (`timer.timeZone`); the caller gave a timer, so it
 * gets the timer's field (`timeZone`), as a batch item's error does.
 */
function timerField(e: unknown): unknown {
  if (e instanceof TickwheelError && e.field !== undefined && e.field.startsWith('timer.')) {
    return new TickwheelError(e.status, e.code, e.field.slice('timer.'.length), e.message, e.mayHaveApplied);
  }
  return e;
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

function qs(query: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined) {
      parts.push(`${enc(k)}=${enc(String(v))}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
