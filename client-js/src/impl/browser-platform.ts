import { type HttpAnswer, type HttpRequest, type Platform, type SocketLike, TransportFailure } from './platform.js';

/**
 * Browsers (and other runtimes with global `fetch` and `WebSocket`). A browser WebSocket cannot send headers, so the
 * token goes as `?access_token=`, which the server accepts there. A failed `fetch` does not say whether the request
 * left, so it counts as sent (never resent, `mayHaveApplied`).
 */
export class BrowserPlatform implements Platform {
  private readonly pending = new Set<AbortController>();

  async request(r: HttpRequest): Promise<HttpAnswer> {
    const abort = new AbortController();
    this.pending.add(abort);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, r.timeoutMs);
    try {
      const init: RequestInit = { method: r.method, headers: r.headers, signal: abort.signal };
      if (r.body !== undefined) {
        init.body = r.body;
      }
      const res = await fetch(r.url, init);
      const body = await res.text();
      return { status: res.status, body };
    } catch (e) {
      throw new TransportFailure(timedOut ? `${r.method} ${r.url}: no answer within ${r.timeoutMs} ms`
        : `${r.method} ${r.url}: ${(e as Error).message}`, true, timedOut);
    } finally {
      clearTimeout(timer);
      this.pending.delete(abort);
    }
  }

  webSocket(url: string, token: string | undefined): SocketLike {
    const u = token === undefined ? url : `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
    return new WebSocket(u) as unknown as SocketLike;
  }

  abort(socket: SocketLike): void {
    socket.close();
  }

  /** Aborts the requests in flight. */
  close(): void {
    for (const a of this.pending) {
      a.abort();
    }
    this.pending.clear();
  }
}
