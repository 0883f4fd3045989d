// The client against the real server over TLS (--tls-cert/--tls-key, a certificate of a CA the test makes with
// openssl): calls, WebSocket commands and a subscription verified against `ca`; without it, Node's roots do not
// know the CA and nothing connects.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TickwheelClient, TickwheelError } from '../dist/node.js';
import { cleanup, startServer, tempDir, waitFor } from './support/server.mjs';

let dir;
let server;
let ca;

function openssl(...args) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

before(async () => {
  dir = tempDir('tw-js-tls-');
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2',
    '-subj', '/CN=tickwheel js test CA', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=js');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', '7', '-days', '1',
    '-extfile', 'server.ext', '-out', 'server.crt');
  ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
  server = await startServer(['--store', 'memory', '--token', 'js-tls',
    '--tls-cert', join(dir, 'server.crt'), '--tls-key', join(dir, 'server.key')]);
});

after(async () => {
  await server?.stop();
  if (dir) cleanup(dir);
});

test('https and wss verified against the given CA', async () => {
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  const tw = new TickwheelClient({ endpoint: server.url, token: 'js-tls', ca, requestTimeoutMs: 10_000 });
  try {
    const got = [];
    const sub = tw.subscribe(['tls'], undefined, (f) => got.push(f), () => {});
    await sub.subscribed;
    const t = await tw.schedule({ id: 'js-tls-1', topic: 'tls', delayMs: 50 });
    assert.equal(t.id, 'js-tls-1');
    await tw.put({ id: 'js-tls-2', topic: 'tls', delayMs: 600_000 });          // a WebSocket command
    assert.equal((await tw.get('js-tls-2')).id, 'js-tls-2');
    await waitFor(() => got.some((f) => f.id === 'js-tls-1'), 'the firing over wss');
    await sub.close();
  } finally {
    await tw.close();
  }
});

test('without the CA the server is not trusted', async () => {
  const tw = new TickwheelClient({ endpoint: server.url, token: 'js-tls', requestTimeoutMs: 5_000 });
  try {
    await assert.rejects(tw.get('anything'), (e) => e instanceof TickwheelError && e.status !== 404);
  } finally {
    await tw.close();
  }
  assert.throws(() => new TickwheelClient({ endpoint: server.url, ca: 'not pem' }), /ca must be PEM/);
});
