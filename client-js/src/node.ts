import { TickwheelClientBase } from './client.js';
import { NodePlatform } from './impl/node-platform.js';
import type { TickwheelClientOptions } from './options.js';

export * from './exports.js';

/**
 * A tickwheel client for Node 20+: HTTP over `node:http`/`node:https` keep-alive agents, WebSockets over `ws`.
 * Nothing is connected until the first call.
 *
 * @throws RangeError or TypeError naming a bad option
 */
export class TickwheelClient extends TickwheelClientBase {
  constructor(options?: TickwheelClientOptions) {
    super(options, (o) => new NodePlatform(o.maxScheduleBatchesInFlight + o.maxTouchBatchesInFlight + 8, o.ca));
  }
}
