import { TickwheelClientBase } from './client.js';
import { BrowserPlatform } from './impl/browser-platform.js';
import type { TickwheelClientOptions } from './options.js';

export * from './exports.js';

/**
 * A tickwheel client for browsers (global `fetch` and `WebSocket`; the token goes to WebSockets as
 * `?access_token=`). Nothing is connected until the first call.
 *
 * @throws RangeError or TypeError naming a bad option
 */
export class TickwheelClient extends TickwheelClientBase {
  constructor(options?: TickwheelClientOptions) {
    super(options, () => new BrowserPlatform());
  }
}
