// Subscriptions across a kill -9 and restart of the server (RocksDB, same data dir) and across client restarts.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TickwheelClient } from '../dist/node.js';
import { cleanup, startServer, tempDir, waitFor } from './support/server.mjs';

const dir = tempDir();
let server;
const clients = [];

/** A client closed after the test whatever happens (an open one would keep this test's process alive). */
function client(options) {
  const c = new TickwheelClient(options);
  clients.push(c);
  return c;
}

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
  cleanup(dir);
});

/** Asserts `firings` are the firings of `ids`, once each, with seqs first..first+n-1 in order (no gap, no repeat). */
function assertExactly(firings, ids, firstSeq) {
  assert.deepEqual(firings.map((f) => f.seq), ids.map((_, i) => firstSeq + i), 'seqs in order, no gap, no repeat');
  assert.deepEqual(new Set(firings.map((f) => f.id)), new Set(ids));
  assert.equal(firings.length, ids.length);
}

test('a live subscription misses nothing and repeats nothing across kill -9 and restart', async () => {
  const args = ['--store', 'rocksdb', '--data-dir', dir];
  server = await startServer(args);
  const tw = client({ endpoint: server.url, reconnectInitialBackoffMs: 50, reconnectMaxBackoffMs: 250,
    idleTimeoutMs: 4_000, requestTimeoutMs: 90_000 });
  const received = [];
  const sub = tw.subscribe(['restart'], undefined, (f) => received.push(f), () => {});
  await sub.subscribed;

  // 60 timers due over 3 s: some fire before the kill, some while the server is down (at recovery), some after
  const ids = Array.from({ length: 60 }, (_, i) => `r-${i}`);
  await Promise.all(ids.map((id, i) => tw.schedule({ id, topic: 'restart', delayMs: 200 + i * 50 })));
  await waitFor(() => received.length >= 5, 'the first firings');
  await server.kill9();
  const firedBeforeKill = received.length;
  // calls made while the server is down wait (never sent) and go once it accepts connections again: answered, or
  // refused with 503 while it still recovers its timers (it listens before it has recovered)
  const whileDown = Promise.allSettled([tw.schedule({ id: 'down-s', topic: 'other', delayMs: 3_600_000 }),
    tw.put({ id: 'down-p', topic: 'other', delayMs: 3_600_000 })]);
  server = await startServer(args, { port: server.port });
  for (const [i, outcome] of (await whileDown).entries()) {
    if (outcome.status === 'fulfilled') {
      assert.equal(outcome.value.id, ['down-s', 'down-p'][i]);
    } else {
      assert.deepEqual([outcome.reason.status, outcome.reason.code], [503, 'unavailable'], String(outcome.reason));
    }
  }
  await waitFor(() => received.length >= ids.length, `all ${ids.length} firings (have ${received.length})`, 40_000);
  assert.ok(firedBeforeKill < ids.length, 'the kill came before the last firing');
  assert.ok(sub.reconnects >= 1, 'the subscription reconnected');
  assertExactly(received, ids, 1);
  const cursor = sub.lastCursor;
  assert.equal(typeof cursor, 'string');
  await tw.close();

  // the process "restarts": firings happen while nobody listens, then a new client resumes from the saved cursor
  const writer = client({ endpoint: server.url });
  const later = Array.from({ length: 20 }, (_, i) => `l-${i}`);
  await Promise.all(later.map((id, i) => writer.schedule({ id, topic: 'restart', delayMs: 10 + i * 5 })));
  await waitFor(async () => (await writer.list({ topic: 'restart' })).timers.length === 0, 'the later timers fired');
  await writer.close();

  const reader = client({ endpoint: server.url });
  const resumed = [];
  const sub2 = reader.subscribe(['restart'], cursor, (f) => resumed.push(f), () => {});
  await waitFor(() => resumed.length >= later.length, `the ${later.length} firings made while away`);
  await sub2.close();
  await reader.close();
  assertExactly(resumed, later, ids.length + 1);
});
