/** JSON as the server takes and returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A timer's callback (contract, "Callbacks"): each firing is also POSTed to `url`, signed as Standard Webhooks v1,
 * and retried until a 2xx answer or `maxAttempts` attempts. Fields left out take the server's defaults (timeout
 * 10,000 ms, 8 attempts, the contract's retry schedule 5 s … 10 h); the server answers `400 invalid_argument`
 * naming a bad one (`callback.url`, `callback.timeoutMs`, …). A loopback or private address is refused unless the
 * server runs with `--webhook-allow-private`.
 */
export interface Callback {
  /** `http` or `https`. */
  url: string;
  /** Attempt timeout, ms (1,000 .. 30,000). */
  timeoutMs?: number;
  /** At most this many attempts per firing (1 .. 20). */
  maxAttempts?: number;
  /** With `maxBackoffMs`: the n-th retry waits `min(maxBackoffMs, minBackoffMs·2^(n-1))` ±20 %. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** What a timer does with due times missed while the server was down or behind (`fixed-rate`, `cron`). */
export type Misfire = 'fire-once' | 'fire-all' | 'skip';
export type TimerKind = 'once' | 'fixed-rate' | 'fixed-delay' | 'cron';

/**
 * A timer as the client sends it (`schedule`, `put`): the contract's fields, each optional here; the server
 * validates them and answers `400 invalid_argument` naming the field.
 */
export interface TimerRequest {
  /** `[A-Za-z0-9._:-]{1,200}`; optional for `schedule` (the server generates one), required for `put`. */
  id?: string;
  /** `[A-Za-z0-9._-]{1,100}`; the server's default is `"default"`. */
  topic?: string;
  /** `once` (the server's default), `fixed-rate`, `fixed-delay`, `cron`. */
  kind?: TimerKind | (string & {});
  /** First firing this long after the server accepts the timer, ms (≥ 0); exclusive with `at`. */
  delayMs?: number;
  /** First firing at this instant: epoch ms or an ISO-8601 string; exclusive with `delayMs`. */
  at?: number | string;
  /** Period, ms (≥ the server's tick), for `fixed-rate` and `fixed-delay` only. */
  periodMs?: number;
  /** The timer ends after this many firings (≥ 1). */
  maxFirings?: number;
  misfire?: Misfire | (string & {});
  /** A `cron` timer's expression: 5 fields (minute first) or 6 (seconds first), `L`, `W`, `#`, `@daily`, …. */
  cron?: string;
  /** The IANA zone the cron expression is read in (default `UTC`). */
  timeZone?: string;
  /** A local time skipped by a daylight-saving change: `shift`, `skip`, `auto` (default). */
  dstGap?: 'shift' | 'skip' | 'auto';
  /** A local time repeated by a daylight-saving change: `once`, `twice`, `auto` (default). */
  dstOverlap?: 'once' | 'twice' | 'auto';
  /** A periodic timer has nothing due after this instant: epoch ms or ISO-8601. */
  endAt?: number | string;
  /** Each due time moves later by a deterministic amount in `[0, jitterMs)` (0 .. 3,600,000). */
  jitterMs?: number;
  /** Each firing is also POSTed here. */
  callback?: Callback;
  /** Any JSON value (at most 64 KiB serialized), returned in every firing. */
  payload?: Json;
}

/**
 * A timer as the server answered it: the fields it was created with plus `nextDueAt`, `firings`, `createdAt` and,
 * for periodic timers, `upcoming`. Fields a later server adds are there too.
 */
export interface TimerInfo {
  id: string;
  topic: string;
  kind: string;
  delayMs?: number;
  periodMs?: number;
  maxFirings?: number;
  misfire?: string;
  cron?: string;
  timeZone?: string;
  dstGap?: string;
  dstOverlap?: string;
  endAt?: number;
  jitterMs?: number;
  callback?: Required<Pick<Callback, 'url'>> & Callback;
  payload?: Json;
  /** The next due time, epoch ms. */
  nextDueAt: number;
  /** Firings so far. */
  firings: number;
  /** When the server accepted the timer, epoch ms. */
  createdAt: number;
  /** Whether it is paused (fires no more until resumed). */
  paused?: boolean;
  /** A periodic timer's next due times (epoch ms, at most 5). */
  upcoming?: number[];
  [field: string]: unknown;
}

/** One firing as pushed by the server. */
export interface Firing {
  type: 'fired';
  /** Its place in the firing log: strictly increasing per store (per partition in a cluster). */
  seq: number;
  /** Opaque resume cursor. */
  cursor?: string;
  id: string;
  topic: string;
  /** Which firing of its timer this is, from 1. */
  firing: number;
  /** Due time, epoch ms. */
  dueAt: number;
  /** The un-jittered due time, when the timer has `jitterMs`. */
  nominalAt?: number;
  /** When it fired, epoch ms (never before `dueAt`). */
  firedAt: number;
  /** In a cluster: the timer's partition (`seq` counts per partition). */
  partition?: number;
  payload?: Json;
  [field: string]: unknown;
}

/** One page of `GET /v1/timers`, ordered by `nextDueAt`; `next` is the cursor of the next page, or null. */
export interface TimerPage {
  timers: TimerInfo[];
  next: string | null;
}

/** A topic's state (`{"topic","pending","paused"}`). */
export interface TopicInfo {
  topic: string;
  /** Pending timers (armed, paused, or held back by the topic's pause). */
  pending: number;
  /** No timer of the topic fires until it is resumed. */
  paused: boolean;
  [field: string]: unknown;
}

/** One page of `GET /v1/topics`; `next` is passed as `after` for the next page, or null on the last. */
export interface TopicPage {
  topics: TopicInfo[];
  next: string | null;
}

export type DeliveryState = 'pending' | 'succeeded' | 'dead';

/** A callback delivery (one per firing of a timer with a `callback`). */
export interface Delivery {
  /** `msg_` + the firing's seq (in a cluster `msg_<partition>_<seq>`): the `webhook-id` of every attempt. */
  id: string;
  timerId: string;
  firing: Firing;
  url: string;
  state: DeliveryState;
  /** Oldest first. */
  attempts: { n: number; at: number; status?: number; error?: string; durationMs: number }[];
  /** Epoch ms of the next attempt (pending only). */
  nextAttemptAt?: number;
  [field: string]: unknown;
}

/** One page of `GET /v1/deliveries`; `next` is passed as `cursor` for the next page, or null on the last. */
export interface DeliveryPage {
  deliveries: Delivery[];
  next: string | null;
}

/** `GET /v1/wheel`: the live timing wheel. */
export interface WheelInfo {
  tickMs: number;
  now: number;
  pending: number;
  firedTotal: number;
  levels: { level: number; slots: number; spanMs: number; cursor: number; occupancy: number[]; [f: string]: Json | undefined }[];
  lateness?: { p50Ms?: number; p99Ms?: number; maxMs?: number };
  [field: string]: unknown;
}

/** `GET /v1/cluster`: the nodes and partition owners (without `--cluster`: one node owning everything). */
export interface ClusterInfo {
  nodeId: string;
  partitions: number;
  nodes: { id: string; address: string; partitions: number; lastSeenAt: number; [f: string]: Json | undefined }[];
  owners: { partition: number; node: string; epoch: number; [f: string]: Json | undefined }[];
  [field: string]: unknown;
}

/** `GET /health`: `status` `up` once recovered, `recovering` before (answered 503). */
export interface HealthInfo {
  status: 'up' | 'recovering' | (string & {});
  store?: string;
  pending?: number;
  firedTotal?: number;
  [field: string]: unknown;
}

/** Where a subscription starts: undefined for only new firings, a seq (number) or a cursor (string). */
export type From = number | string | undefined;
