/**
 * The endpoint in use, out of the options' list, and the move to the next one when a connection to it cannot be
 * made. Every part of the client asks for the current endpoint when it connects and reports a failed connection;
 * the first report about the endpoint in use moves everyone on, later reports about one already left change
 * nothing (so ten requests failing together skip one node, not ten).
 */
export class Endpoints {
  private index = 0;

  constructor(private readonly urls: readonly string[]) {}

  /** The base URL in use (`http[s]://HOST:PORT`). */
  current(): string {
    return this.urls[this.index]!;
  }

  /** A connection to `base` could not be made: the next endpoint is used, if `base` is still in use. */
  failed(base: string): void {
    if (this.urls[this.index] === base) {
      this.index = (this.index + 1) % this.urls.length;
    }
  }

  /** The WebSocket URL of `base`. */
  static ws(base: string): string {
    return `${base.replace(/^http/, 'ws')}/v1/ws`;
  }
}
