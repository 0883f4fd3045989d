import type { ResolvedOptions } from '../options.js';
import { TickwheelError } from '../errors.js';
import { statusOf } from './answers.js';
import { type Command, CommandChannel } from './command-channel.js';
import { Endpoints } from './endpoints.js';
import type { PartitionMap } from './partition-map.js';
import type { Platform } from './platform.js';

/** Most owner channels kept (node addresses seen); commands to further owners go to the endpoint in use. */
export const MAX_OWNER_CHANNELS = 64;

/**
 * Sends each per-id command (`put`, `cancel`) on the command WebSocket of its timer's owner (`PartitionMap`): one
 * {@link CommandChannel} per owner, opened on first use, and the channel of the endpoint in use for a command whose
 * owner is not known (a single endpoint, the map not read yet, an owner that could not be reached lately), which
 * forwards it.
 *
 * When a connection to an owner cannot be made, the commands waiting for it are reported to the map (`failed`) and
 * go on the endpoint in use's channel with their own deadlines; an answer 503 has the map read again (`stale`). At
 * most {@link MAX_OWNER_CHANNELS} owner channels; `maxInFlight` and `maxQueued` hold per channel.
 */
export class CommandRouter {
  private readonly main: CommandChannel;
  private readonly byOwner = new Map<string, CommandChannel>();
  private closed = false;

  constructor(private readonly platform: Platform, endpoints: Endpoints, private readonly o: ResolvedOptions,
    private readonly owners: PartitionMap) {
    this.main = new CommandChannel(platform, endpoints, o);
  }

  /** A deadline `requestTimeoutMs` from now. */
  deadline(): number {
    return this.main.deadline();
  }

  /** Sends `c`, a command about timer `id`: its result message. */
  submit(id: string, c: Command): Promise<Record<string, unknown>> {
    const answer = this.channelOf(id).submit(c);
    if (this.owners.enabled) {
      answer.then((r) => {
        if (statusOf(r) === 503) {
          this.owners.stale();
        }
      }, (e: unknown) => {
        if (e instanceof TickwheelError && e.status === 503) {
          this.owners.stale();
        }
      });
    }
    return answer;
  }

  private channelOf(id: string): CommandChannel {
    const base = this.closed ? undefined : this.owners.ownerOf(id);
    if (base === undefined) {
      return this.main;
    }
    let c = this.byOwner.get(base);
    if (c === undefined) {
      if (this.byOwner.size >= MAX_OWNER_CHANNELS) {
        return this.main;
      }
      c = new CommandChannel(this.platform, new Endpoints([base]), this.o, (waiting) => {
        this.owners.failed(base);
        for (const w of waiting) {
          void this.main.submit(w);
        }
      });
      this.byOwner.set(base, c);
    }
    return c;
  }

  inFlight(): number {
    let n = this.main.inFlight();
    for (const c of this.byOwner.values()) {
      n += c.inFlight();
    }
    return n;
  }

  queued(): number {
    let n = this.main.queued();
    for (const c of this.byOwner.values()) {
      n += c.queued();
    }
    return n;
  }

  /** Command connections opened so far, to any node. */
  get connections(): number {
    let n = this.main.connections;
    for (const c of this.byOwner.values()) {
      n += c.connections;
    }
    return n;
  }

  /** Rejects everything pending with `client_closed` and closes every channel. */
  close(): void {
    this.closed = true;
    for (const c of this.byOwner.values()) {
      c.close();
    }
    this.main.close();
  }
}
