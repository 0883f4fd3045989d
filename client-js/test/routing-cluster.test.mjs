// The client given both nodes of a settled two-node cluster (real jars on a private redis-server) sends every call
// about one timer (put, get, pause, resume, fire, cancel; schedule and touch too) to the timer's owner: neither node
// forwards any of them (tickwheel_routed_calls_total{outcome="forwarded"} does not move), and both serve some.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TickwheelClient } from '../dist/node.js';
import { hasRedisServer, startRedis, startServer, waitFor } from './support/server.mjs';

const PARTITIONS = 16;
let redis;
const nodes = [];
let tw;

after(async () => {
  await tw?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
});

const M64 = (1n << 64n) - 1n;

function fmix64(k) {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & M64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & M64;
  k ^= k >> 33n;
  return k;
}

function nodeHash(id) {
  let x = 0xcbf29ce484222325n;
  for (const b of Buffer.from(id, 'utf8')) {
    x ^= BigInt(b);
    x = (x * 0x100000001b3n) & M64;
  }
  return fmix64(x);
}

/** The server's rendezvous assignment of partitions to node ids (its Rendezvous.assign), written out with BigInt. */
function rendezvous(ids, partitions) {
  const out = [];
  for (let p = 0; p < partitions; p++) {
    const pk = (fmix64(BigInt(p + 1)) * 0x9e3779b97f4a7c15n) & M64;
    let best;
    let bestW = 0n;
    for (const id of ids) {
      const w = fmix64(nodeHash(id) ^ pk);
      if (best === undefined || w > bestW || (w === bestW && id < best)) {
        best = id;
        bestW = w;
      }
    }
    out.push(best);
  }
  return out;
}

async function getJson(url) {
  const r = await fetch(url);
  assert.equal(r.status, 200, url);
  return r.json();
}

/** The node's count of routed calls with `outcome`, from its /metrics (0 when absent). */
async function routed(node, outcome) {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  const m = new RegExp(`^tickwheel_routed_calls_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/** Whether every node's view has both nodes and every partition where rendezvous hashing puts it: nothing moves. */
async function settled() {
  const want = rendezvous(['n0', 'n1'], PARTITIONS);
  for (const n of nodes) {
    const c = await getJson(`${n.url}/v1/cluster`);
    if (c.nodes.length !== 2 || c.owners.length !== PARTITIONS || c.owners.some((o) => o.node !== want[o.partition])) {
      return false;
    }
  }
  return true;
}

test('every call about one timer reaches its owner directly', {
  skip: !hasRedisServer() && 'redis-server is not on the PATH',
}, async () => {
  redis = await startRedis();
  const args = (i) => ['--store', 'redis', '--redis', redis.uri, '--cluster', '--node-id', `n${i}`, '--partitions',
    String(PARTITIONS), '--lease-ms', '3000'];
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
  await waitFor(settled, 'every view settled', 30_000);
  tw = new TickwheelClient({ endpoints: nodes.map((n) => n.url) });
  await assert.rejects(tw.touch('warm-up'), (e) => e.status === 404); // reads the map
  await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
  // the warm-up went to the endpoint in use, which may have forwarded it
  const forwardedBefore = await Promise.all(nodes.map((n) => routed(n, 'forwarded')));
  const localBefore = await Promise.all(nodes.map((n) => routed(n, 'local')));
  for (let i = 0; i < 30; i++) {
    const id = `r-${i}`;
    assert.equal((await tw.put({ id, topic: 'rt', delayMs: 600_000 })).id, id);
    assert.equal((await tw.get(id)).id, id);
    assert.equal((await tw.pause(id)).id, id);
    assert.equal((await tw.resume(id)).id, id);
    assert.equal((await tw.fire(id)).firings, 1);
    assert.equal((await tw.put({ id, topic: 'rt', delayMs: 500_000 })).id, id);
    await tw.touch(id);
    await tw.cancel(id);
    assert.equal((await tw.schedule({ id, topic: 'rt', delayMs: 600_000 })).id, id);
    await tw.cancel(id);
  }
  for (let i = 0; i < nodes.length; i++) {
    assert.equal(await routed(nodes[i], 'forwarded'), forwardedBefore[i], `calls ${nodes[i].url} forwarded`);
    assert.equal(await routed(nodes[i], 'not_owner'), 0, `calls ${nodes[i].url} refused as not its own`);
    assert.ok(await routed(nodes[i], 'local') > localBefore[i] + 50, `calls ${nodes[i].url} served`);
  }
});
