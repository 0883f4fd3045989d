// The client given both nodes of a two-node cluster (real jars on a private redis-server): when the node in use is
// killed with kill -9, calls go to the other node and the subscription resumes there by its cursor, so every
// acknowledged timer's firing reaches the handler exactly once.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TickwheelClient } from '../dist/node.js';
import { hasRedisServer, startRedis, startServer, waitFor } from './support/server.mjs';

let redis;
const nodes = [];
let tw;

after(async () => {
  await tw?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
});

test('a subscription and schedules move to the other node of a cluster after a kill -9', {
  skip: !hasRedisServer() && 'redis-server is not on the PATH',
}, async () => {
  redis = await startRedis();
  const args = (i) => ['--store', 'redis', '--redis', redis.uri, '--cluster', '--node-id', `n${i}`, '--partitions', '16',
    '--lease-ms', '3000'];
  const started = await Promise.allSettled([startServer(args(0)), startServer(args(1))]);
  for (const s of started) {
    if (s.status === 'fulfilled') {
      nodes.push(s.value);
    }
  }
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    throw failed.reason;
  }
  tw = new TickwheelClient({ endpoints: nodes.map((n) => n.url), reconnectInitialBackoffMs: 50,
    reconnectMaxBackoffMs: 500, requestTimeoutMs: 20_000 });
  const got = new Map();
  const sub = tw.subscribe(['cit'], undefined, (f) => got.set(f.id, (got.get(f.id) ?? 0) + 1), () => {});
  await sub.subscribed;

  /** Schedules `id`, again while the cluster answers 503 (a partition changing hands). */
  const schedule = async (id, delayMs) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await tw.schedule({ id, topic: 'cit', delayMs });
      } catch (e) {
        if (e.status !== 503 || attempt > 200) {
          throw e;
        }
        await new Promise((r) => setTimeout(r, 100)); // retry backoff
      }
    }
  };
  const ids = (prefix) => Array.from({ length: 30 }, (_, i) => `${prefix}-${i}`);
  await Promise.all(ids('early').map((id) => schedule(id, 300)));
  await waitFor(() => got.size === 30, 'the early firings');
  await Promise.all(ids('late').map((id) => schedule(id, 2_000))); // due after the kill: about half on n0's partitions
  await nodes[0].kill9();
  // until the client has moved on: a keep-alive connection to the dead node may still be pooled, and a create sent on
  // it fails with connection_lost (it may have been applied), never sent again; this read clears the way
  await waitFor(async () => (await tw.health().catch(() => undefined))?.node === 'n1', 'the client on n1');
  await Promise.all(ids('after').map((id) => schedule(id, 300))); // through n1: n0 refuses connections now
  await waitFor(() => got.size === 90, `all 90 firings (have ${got.size})`, 40_000);
  // a firing made after all others: a resume replays before it streams live firings, so a repeat comes before this
  await schedule('sentinel', 1);
  await waitFor(() => got.has('sentinel'), 'the sentinel firing');
  assert.equal(got.size, 91);
  assert.deepEqual([...got.entries()].filter(([, n]) => n !== 1), [], 'each firing once');
  assert.ok(sub.reconnects >= 1);
});
