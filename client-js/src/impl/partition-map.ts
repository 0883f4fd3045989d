import { isObject } from './answers.js';
import { now } from './deferred.js';
import type { HttpCalls } from './http-calls.js';

/** Age at which the map is read again while in use, ms. */
export const REFRESH_MS = 5_000;
/** Least time between two reads, ms. */
export const MIN_REFRESH_MS = 500;
/** How long an owner that could not be reached gets no call, ms. */
export const UNREACHABLE_MS = 10_000;

/**
 * Which node owns which partition of a cluster, as `GET /v1/cluster` says, so the batchers send each timer straight
 * to its owner instead of to a node that forwards it. Only a client given several endpoints routes so (`enabled`);
 * a single node (one partition) is never routed.
 *
 * The map is read from the endpoint in use on first use, again when it is {@link REFRESH_MS} ms old (read while in
 * use, so an idle client reads nothing), and soon after a request to an owner could not be made (`failed`) or was
 * answered 503 (`stale`): partitions changed hands. (A node that no longer owns a partition forwards the call to the
 * new owner, so a stale map costs a hop, not an error.) A call whose owner is not known (not read yet, no live owner, an owner that could not be
 * reached within the last {@link UNREACHABLE_MS} ms) goes to the endpoint in use, which forwards it: routing saves a
 * hop, it never decides whether a call succeeds. At most one read in flight, at most one every
 * {@link MIN_REFRESH_MS} ms.
 */
export class PartitionMap {
  /** Per partition, its owner's base URL, or undefined; undefined until first read. */
  private owners: (string | undefined)[] | undefined;
  private readAt = 0;
  private lastTry = -Infinity;
  private reading = false;
  private readTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unreachableUntil = new Map<string, number>();
  private closed = false;
  /** Reads of the map so far. */
  reads = 0;

  constructor(private readonly http: HttpCalls, readonly enabled: boolean) {}

  /** Whether a map has been read. */
  get loaded(): boolean {
    return this.owners !== undefined;
  }

  /** The base URL of `id`'s owner, or undefined: send it to the endpoint in use. */
  ownerOf(id: string | undefined): string | undefined {
    if (!this.enabled || this.closed) {
      return undefined;
    }
    const o = this.owners;
    if (o === undefined || now() - this.readAt > REFRESH_MS) {
      this.read();
    }
    if (o === undefined || o.length < 2 || id === undefined) {
      return undefined;
    }
    const base = o[partitionOf(id, o.length)];
    if (base !== undefined) {
      const until = this.unreachableUntil.get(base);
      if (until !== undefined) {
        if (now() < until) {
          return undefined;
        }
        this.unreachableUntil.delete(base);
      }
    }
    return base;
  }

  /** A request to owner `base` could not be made: calls go elsewhere for a while, and the map is read soon. */
  failed(base: string | undefined): void {
    if (!this.enabled || base === undefined) {
      return;
    }
    this.unreachableUntil.set(base, now() + UNREACHABLE_MS);
    this.read();
  }

  /**
   * An owner answered 503 (a partition changing hands, no live owner yet): the map is read again soon. The call's
   * own retry is its caller's.
   */
  stale(): void {
    if (this.enabled && !this.closed) {
      this.read();
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.readTimer);
  }

  private read(): void {
    if (this.reading || this.readTimer !== undefined || this.closed) {
      return;
    }
    const wait = MIN_REFRESH_MS - (now() - this.lastTry);
    if (wait > 0) {
      this.readTimer = setTimeout(() => {
        this.readTimer = undefined;
        this.read();
      }, wait);
      return;
    }
    this.reading = true;
    this.lastTry = now();
    this.reads++;
    this.http.send('GET', '/v1/cluster', undefined).then((answer) => {
      if (answer.status === 200) {
        try {
          this.owners = parseMap(JSON.parse(answer.body));
        } catch {
          this.owners = undefined; // not a map this client reads: calls go to the endpoint in use
        }
        this.readAt = now();
      }
    }, () => {}).finally(() => {
      this.reading = false;
    });
  }
}

/** Per partition, the owner's address, from a `GET /v1/cluster` body. */
export function parseMap(body: unknown): (string | undefined)[] {
  if (!isObject(body) || typeof body['partitions'] !== 'number' || !Array.isArray(body['nodes'])
    || !Array.isArray(body['owners'])) {
    throw new TypeError('not a partition map');
  }
  const address = new Map<string, string>();
  for (const n of body['nodes']) {
    if (isObject(n) && typeof n['id'] === 'string' && typeof n['address'] === 'string') {
      address.set(n['id'], n['address'].replace(/\/$/, ''));
    }
  }
  const out: (string | undefined)[] = new Array<string | undefined>(body['partitions']).fill(undefined);
  for (const o of body['owners']) {
    if (isObject(o) && typeof o['partition'] === 'number' && typeof o['node'] === 'string'
      && o['partition'] >= 0 && o['partition'] < out.length) {
      out[o['partition']] = address.get(o['node']);
    }
  }
  return out;
}

/**
 * The server's partition of an id: MurmurHash3's 32-bit finalizer of Java's `String.hashCode()` of the id (over its
 * UTF-16 code units), unsigned, modulo the partition count.
 */
export function partitionOf(id: string, partitions: number): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) {
    h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % partitions;
}
