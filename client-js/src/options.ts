/**
 * Options of a {@link TickwheelClient}: the Java client's `TickwheelClientOptions`, as a plain object. Every option is
 * optional; {@link resolveOptions} fills in the defaults and refuses a bad value with a `RangeError`/`TypeError`
 * naming the option and the value.
 */
export interface TickwheelClientOptions {
  /** The server's base URL, `http://HOST:PORT` or `https://HOST:PORT` (default `http://127.0.0.1:8080`). */
  endpoint?: string;
  /**
   * The nodes of a tickwheel cluster (or one server), each as `endpoint`: 1 to 64, one scheme for all, no two alike;
   * replaces `endpoint`. The client uses one endpoint at a time for everything and moves on to the next (round
   * robin) when a connection to the one in use cannot be made. A request that was sent and got no answer is never
   * sent to another node. With several endpoints, schedules and touches go straight to each timer's owner, as the
   * cluster's partition map (`GET /v1/cluster`) says; a timer without an id, or whose owner is unknown, to the
   * endpoint in use.
   */
  endpoints?: readonly string[];
  /** Sent as `Authorization: Bearer TOKEN` (in browsers the WebSocket carries it as `?access_token=`). */
  token?: string;
  /**
   * Node only: the CA certificates (PEM text, one string or several) an `https://` server is verified against, in place
   * of Node's bundled roots: a private CA, or the server's own self-signed certificate. The host name is verified too.
   * Browsers verify against the system's trust store and ignore it.
   */
  ca?: string | readonly string[];
  /** TCP connect plus WebSocket handshake, ms (1 .. 600,000; default 5,000). */
  connectTimeoutMs?: number;
  /**
   * A connection idle this long is closed, ms (100 .. 3,600,000; default 60,000). Subscriptions ping every half
   * of it, and a subscription socket that hears nothing for this long is taken for dead and reconnected.
   */
  idleTimeoutMs?: number;
  /** From a call to its answer, time queued and retries included, ms (1 .. 3,600,000; default 30,000). */
  requestTimeoutMs?: number;
  /** WebSocket commands (`put`, `cancel`) written and not yet answered (1 .. 1,000,000; default 1,024). */
  maxInFlight?: number;
  /**
   * Commands waiting for an in-flight slot or the connection (0 .. 10,000,000; default 65,536); beyond it a call
   * fails at once with `queue_full`. Schedules and touches each have a queue of their own with the same cap.
   */
  maxQueued?: number;
  /** Ids per batch touch request, `POST /v1/timers/touch` (1 .. 10,000; default 10,000). */
  maxTouchBatchIds?: number;
  /** Batch touch requests sent and not yet answered (1 .. 64; default 4). */
  maxTouchBatchesInFlight?: number;
  /** Timers per batch create request, `POST /v1/timers/batch` (1 .. 10,000; default 1,000). */
  maxScheduleBatchTimers?: number;
  /** Batch create requests sent and not yet answered (1 .. 64; default 4). */
  maxScheduleBatchesInFlight?: number;
  /** First wait before reconnecting or resending, ms; doubled after each failed attempt (1 .. 60,000; default 100). */
  reconnectInitialBackoffMs?: number;
  /** The wait's cap, ms (1 .. 600,000, at least `reconnectInitialBackoffMs`; default 5,000). */
  reconnectMaxBackoffMs?: number;
}

/** The options with every default filled in and checked. */
export interface ResolvedOptions {
  readonly endpoints: readonly string[];
  readonly token: string | undefined;
  readonly ca: readonly string[] | undefined;
  readonly connectTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxInFlight: number;
  readonly maxQueued: number;
  readonly maxTouchBatchIds: number;
  readonly maxTouchBatchesInFlight: number;
  readonly maxScheduleBatchTimers: number;
  readonly maxScheduleBatchesInFlight: number;
  readonly reconnectInitialBackoffMs: number;
  readonly reconnectMaxBackoffMs: number;
}

export const DEFAULTS = {
  endpoint: 'http://127.0.0.1:8080',
  connectTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  requestTimeoutMs: 30_000,
  maxInFlight: 1_024,
  maxQueued: 65_536,
  maxTouchBatchIds: 10_000,
  maxTouchBatchesInFlight: 4,
  maxScheduleBatchTimers: 1_000,
  maxScheduleBatchesInFlight: 4,
  reconnectInitialBackoffMs: 100,
  reconnectMaxBackoffMs: 5_000,
} as const;

/** The most endpoints `endpoints` takes. */
export const MAX_ENDPOINTS = 64;

/**
 * `options` with defaults filled in.
 *
 * @throws RangeError or TypeError naming the option and its value
 */
export function resolveOptions(options: TickwheelClientOptions = {}): ResolvedOptions {
  if (options.endpoint !== undefined && options.endpoints !== undefined) {
    throw new TypeError('give endpoint or endpoints, not both');
  }
  let endpoints: string[];
  if (options.endpoints !== undefined) {
    const list = options.endpoints;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ENDPOINTS) {
      throw new RangeError(`endpoints must hold 1 to ${MAX_ENDPOINTS} endpoints, was `
        + (Array.isArray(list) ? `${list.length} endpoints` : String(list)));
    }
    endpoints = [];
    list.forEach((e, i) => {
      const checked = checkEndpoint(`endpoints[${i}]`, e);
      if (endpoints.includes(checked)) {
        throw new RangeError(`endpoints[${i}] '${checked}' is given twice`);
      }
      if (endpoints.length > 0 && isTls(endpoints[0]!) !== isTls(checked)) {
        throw new RangeError(`endpoints[${i}] '${checked}' has another scheme than endpoints[0] '${endpoints[0]}': `
          + 'all must be http or all https');
      }
      endpoints.push(checked);
    });
  } else {
    endpoints = [checkEndpoint('endpoint', options.endpoint ?? DEFAULTS.endpoint)];
  }
  const token = options.token;
  if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token))) {
    throw new TypeError(`token must be printable ASCII without spaces, or undefined; was `
      + (typeof token === 'string' ? `<${token.length} characters>` : typeof token));
  }
  const caList = options.ca === undefined ? undefined : typeof options.ca === 'string' ? [options.ca] : options.ca;
  if (caList !== undefined && (!Array.isArray(caList) || caList.length === 0
    || !caList.every((c) => typeof c === 'string' && c.includes('-----BEGIN CERTIFICATE-----')))) {
    throw new TypeError('ca must be PEM certificate text (-----BEGIN CERTIFICATE-----), or a non-empty array of them');
  }
  const r: ResolvedOptions = {
    endpoints,
    token,
    ca: caList === undefined ? undefined : [...caList],
    connectTimeoutMs: range('connectTimeoutMs', options.connectTimeoutMs, DEFAULTS.connectTimeoutMs, 1, 600_000),
    idleTimeoutMs: range('idleTimeoutMs', options.idleTimeoutMs, DEFAULTS.idleTimeoutMs, 100, 3_600_000),
    requestTimeoutMs: range('requestTimeoutMs', options.requestTimeoutMs, DEFAULTS.requestTimeoutMs, 1, 3_600_000),
    maxInFlight: range('maxInFlight', options.maxInFlight, DEFAULTS.maxInFlight, 1, 1_000_000),
    maxQueued: range('maxQueued', options.maxQueued, DEFAULTS.maxQueued, 0, 10_000_000),
    maxTouchBatchIds: range('maxTouchBatchIds', options.maxTouchBatchIds, DEFAULTS.maxTouchBatchIds, 1, 10_000),
    maxTouchBatchesInFlight: range('maxTouchBatchesInFlight', options.maxTouchBatchesInFlight,
      DEFAULTS.maxTouchBatchesInFlight, 1, 64),
    maxScheduleBatchTimers: range('maxScheduleBatchTimers', options.maxScheduleBatchTimers,
      DEFAULTS.maxScheduleBatchTimers, 1, 10_000),
    maxScheduleBatchesInFlight: range('maxScheduleBatchesInFlight', options.maxScheduleBatchesInFlight,
      DEFAULTS.maxScheduleBatchesInFlight, 1, 64),
    reconnectInitialBackoffMs: range('reconnectInitialBackoffMs', options.reconnectInitialBackoffMs,
      DEFAULTS.reconnectInitialBackoffMs, 1, 60_000),
    reconnectMaxBackoffMs: range('reconnectMaxBackoffMs', options.reconnectMaxBackoffMs,
      DEFAULTS.reconnectMaxBackoffMs, 1, 600_000),
  };
  if (r.reconnectMaxBackoffMs < r.reconnectInitialBackoffMs) {
    throw new RangeError(`reconnectMaxBackoffMs (${r.reconnectMaxBackoffMs}) must be >= reconnectInitialBackoffMs `
      + `(${r.reconnectInitialBackoffMs})`);
  }
  return Object.freeze(r);
}

function isTls(endpoint: string): boolean {
  return endpoint.startsWith('https:');
}

function checkEndpoint(name: string, endpoint: unknown): string {
  const bad = () => new TypeError(`${name} must be http://HOST:PORT or https://HOST:PORT, was '${String(endpoint)}'`);
  if (typeof endpoint !== 'string') {
    throw bad();
  }
  const e = endpoint.endsWith('/') ? endpoint.slice(0, -1) : endpoint;
  let u: URL;
  try {
    u = new URL(e);
  } catch {
    throw bad();
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '' || (u.pathname !== '/' && u.pathname !== '')
    || u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '' || /[/?#]/.test(e.replace(/^https?:\/\//, ''))) {
    throw bad();
  }
  return e;
}

function range(name: string, value: number | undefined, dflt: number, min: number, max: number): number {
  if (value === undefined) {
    return dflt;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], was ${String(value)}`);
  }
  return value;
}
