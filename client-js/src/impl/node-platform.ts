import * as http from 'node:http';
import * as https from 'node:https';
import { WebSocket } from 'ws';
import { type HttpAnswer, type HttpRequest, type Platform, type SocketLike, TransportFailure } from './platform.js';

/** The largest WebSocket message accepted from the server (a result carries at most one 64 KiB payload). */
const MAX_MESSAGE_BYTES = 4 << 20;

/**
 * Node: `node:http`/`node:https` over keep-alive agents (Node's global fetch manages far fewer requests per
 * second), and the `ws` package for WebSockets (Node 20 has no global WebSocket, and `ws` can send headers).
 */
export class NodePlatform implements Platform {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly ca: string[] | undefined;

  /** @param ca PEM CA certificates to verify `https`/`wss` servers against, or undefined for Node's roots */
  constructor(maxSockets: number, ca?: readonly string[]) {
    this.ca = ca === undefined ? undefined : [...ca];
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets,
      ...(this.ca === undefined ? {} : { ca: this.ca }) });
  }

  request(r: HttpRequest): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      let sent = false;
      let connecting = false;
      let settled = false;
      const tls = r.url.startsWith('https:');
      const headers: Record<string, string | number> = { ...r.headers };
      if (r.body !== undefined) {
        headers['Content-Length'] = Buffer.byteLength(r.body);
      }
      const settle = (f: () => void) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          f();
        }
      };
      const req = (tls ? https : http).request(r.url, {
        method: r.method, headers, agent: tls ? this.httpsAgent : this.httpAgent,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => settle(() => resolve({
          status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'),
        })));
        res.on('error', (e) => settle(() => reject(new TransportFailure(`${r.method} ${r.url}: ${e.message}`, true,
          false))));
        res.on('aborted', () => settle(() => reject(new TransportFailure(`${r.method} ${r.url}: answer cut off`, true,
          false))));
      });
      const timer = setTimeout(() => {
        settle(() => reject(new TransportFailure(`${r.method} ${r.url}: no answer within ${r.timeoutMs} ms`, sent,
          true, connecting)));
        req.destroy();
      }, r.timeoutMs);
      req.on('socket', (s) => {
        if (s.connecting) {
          connecting = true;
          s.once(tls ? 'secureConnect' : 'connect', () => {
            connecting = false;
            sent = true;
          });
        } else {
          sent = true; // a pooled keep-alive connection
        }
      });
      req.on('error', (e) => settle(() => reject(new TransportFailure(`${r.method} ${r.url}: ${e.message}`, sent,
        false, !sent))));
      req.end(r.body);
    });
  }

  webSocket(url: string, token: string | undefined, connectTimeoutMs: number): SocketLike {
    const ws = new WebSocket(url, {
      headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
      handshakeTimeout: connectTimeoutMs,
      maxPayload: MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
      ...(this.ca === undefined ? {} : { ca: this.ca }),
    });
    ws.on('upgrade', (res) => res.socket.setNoDelay(true));
    return ws as unknown as SocketLike;
  }

  abort(socket: SocketLike): void {
    (socket as unknown as WebSocket).terminate();
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
