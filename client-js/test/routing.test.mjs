// A client given a cluster's nodes reads the partition map (GET /v1/cluster) and sends each timer of a batch create
// or touch to the node that owns its id; one endpoint reads no map. Scripted HTTP servers (no JVM).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { TickwheelClient } from '../dist/node.js';
import { deadPort, waitFor } from './support/server.mjs';

const PARTITIONS = 16;
const nodes = [];
/** The map every node answers: partition -> base URL. */
let owners = () => [];

/** The server's partition of an id (core's Partitions.of), written out with BigInt, apart from the client's. */
function partition(id) {
  let h = 0n;
  for (let i = 0; i < id.length; i++) {
    h = (h * 31n + BigInt(id.charCodeAt(i))) & 0xffffffffn;
  }
  const mul = (a, b) => (a * b) & 0xffffffffn;
  h ^= h >> 16n;
  h = mul(h, 0x85ebca6bn);
  h ^= h >> 13n;
  h = mul(h, 0xc2b2ae35n);
  h ^= h >> 16n;
  return Number(h % BigInt(PARTITIONS));
}

async function node() {
  const n = { creates: [], touches: [], commands: [], reads: [], clusterReads: 0 };
  n.server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c) => { body += c; }).on('end', () => {
      let status = 200;
      let out;
      if (req.url === '/v1/cluster') {
        n.clusterReads++;
        const o = owners();
        const ids = [...new Set(o)];
        out = { nodeId: 'x', partitions: PARTITIONS, nodes: ids.map((a, i) => ({ id: `n${i}`, address: a })),
          owners: o.map((a, p) => ({ partition: p, node: `n${ids.indexOf(a)}`, epoch: 1 })) };
      } else if (req.url === '/v1/timers/batch' && n.refuse) {
        status = 503;
        out = { error: { code: 'unavailable', message: 'moving' } };
      } else if (req.url === '/v1/timers/batch') {
        const b = JSON.parse(body);
        n.creates.push(...b.timers.map((t) => t.id));
        out = { results: b.timers.map((t) => ({ status: 201, timer: { ...t, nextDueAt: 1, firings: 0, createdAt: 1 } })) };
      } else if (req.url === '/v1/timers/touch') {
        const b = JSON.parse(body);
        n.touches.push(...b.ids);
        out = { results: b.ids.map((id) => ({ id, status: 200, nextDueAt: 42 })) };
      } else if (req.method === 'GET' && req.url.startsWith('/v1/timers/')) {
        const id = decodeURIComponent(req.url.slice('/v1/timers/'.length));
        n.reads.push(id);
        out = { id, topic: 't', kind: 'once', delayMs: 1000, nextDueAt: 1, firings: 0, createdAt: 1 };
      } else {
        status = 404;
        out = { error: { code: 'not_found', message: 'no' } };
      }
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  n.wss = new WebSocketServer({ server: n.server, path: '/v1/ws' });
  n.wss.on('connection', (ws) => ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    n.commands.push(m);
    const id = m.op === 'put' ? m.timer.id : m.id;
    ws.send(JSON.stringify(m.op === 'put'
      ? { type: 'result', ref: m.ref, status: 201, timer: { ...m.timer, nextDueAt: 1, firings: 0, createdAt: 1 } }
      : { type: 'result', ref: m.ref, status: 204, id }));
  }));
  await new Promise((r) => n.server.listen(0, '127.0.0.1', r));
  n.url = `http://127.0.0.1:${n.server.address().port}`;
  n.reset = () => { n.creates.length = 0; n.touches.length = 0; };
  return n;
}

before(async () => {
  nodes.push(await node(), await node());
});

after(async () => {
  for (const n of nodes) {
    for (const c of n.wss.clients) {
      c.terminate();
    }
    n.wss.close();
    n.server.closeAllConnections();
    await new Promise((r) => n.server.close(r));
  }
});

test('each timer of a batch create and a batch touch goes to its owner', async () => {
  const [a, b] = nodes;
  owners = () => Array.from({ length: PARTITIONS }, (_, p) => (p % 2 === 0 ? a.url : b.url));
  const tw = new TickwheelClient({ endpoints: [a.url, b.url] });
  try {
    await tw.touch('warm-up'); // the first call reads the map
    await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
    a.reset();
    b.reset();
    const even = new Set();
    const odd = new Set();
    const calls = [];
    for (let i = 0; i < 60; i++) {
      const id = `k-${i}`;
      (partition(id) % 2 === 0 ? even : odd).add(id);
      calls.push(tw.schedule({ id, delayMs: 60_000 }), tw.touch(id));
    }
    await Promise.all(calls);
    assert.ok(even.size > 0 && odd.size > 0);
    assert.deepEqual(new Set(a.creates), even);
    assert.deepEqual(new Set(b.creates), odd);
    assert.deepEqual(new Set(a.touches), even);
    assert.deepEqual(new Set(b.touches), odd);
  } finally {
    await tw.close();
  }
});

test('a timer whose owner cannot be reached goes to the endpoint in use', async () => {
  const [a, b] = nodes;
  a.reset();
  b.reset();
  const gone = `http://127.0.0.1:${await deadPort()}`;
  owners = () => Array.from({ length: PARTITIONS }, (_, p) => (p % 2 === 0 ? a.url : gone));
  const tw = new TickwheelClient({ endpoints: [a.url, b.url], reconnectInitialBackoffMs: 10 });
  try {
    await tw.touch('warm-up');
    await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
    const ids = Array.from({ length: 40 }, (_, i) => `u-${i}`);
    await Promise.all(ids.map((id) => tw.schedule({ id, delayMs: 60_000 })));
    assert.deepEqual(new Set(a.creates), new Set(ids));
    assert.equal(b.creates.length, 0);
  } finally {
    await tw.close();
  }
});

test('an owner answering 503 has the map read again', async () => {
  const [a, b] = nodes;
  owners = () => Array.from({ length: PARTITIONS }, (_, p) => (p % 2 === 0 ? a.url : b.url));
  const tw = new TickwheelClient({ endpoints: [a.url, b.url] });
  try {
    await tw.touch('warm-up');
    await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
    const reads = tw.stats().partitionMapReads;
    const id = 'k-0';
    const owner = partition(id) % 2 === 0 ? a : b;
    owner.refuse = true;
    await assert.rejects(tw.schedule({ id, delayMs: 60_000 }), (e) => e.status === 503);
    owner.refuse = false;
    await waitFor(() => tw.stats().partitionMapReads > reads, 'the map read again');
  } finally {
    await tw.close();
  }
});

/** The ids of the `op` commands node `n` received. */
function commanded(n, op) {
  return new Set(n.commands.filter((m) => m.op === op).map((m) => (op === 'put' ? m.timer.id : m.id)));
}

test('puts, cancels and reads of a timer go to its owner', async () => {
  // nodes of its own: no earlier client's map read can land on them
  const a = await node();
  const b = await node();
  nodes.push(a, b);
  owners = () => Array.from({ length: PARTITIONS }, (_, p) => (p % 2 === 0 ? a.url : b.url));
  const tw = new TickwheelClient({ endpoints: [a.url, b.url] });
  try {
    await tw.touch('warm-up');
    await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
    const even = new Set();
    const odd = new Set();
    const calls = [];
    for (let i = 0; i < 40; i++) {
      const id = `p-${i}`;
      (partition(id) % 2 === 0 ? even : odd).add(id);
      calls.push(tw.put({ id, delayMs: 60_000 }), tw.cancel(id), tw.get(id));
    }
    await Promise.all(calls);
    assert.ok(even.size > 0 && odd.size > 0);
    assert.deepEqual(commanded(a, 'put'), even);
    assert.deepEqual(commanded(b, 'put'), odd);
    assert.deepEqual(commanded(a, 'cancel'), even);
    assert.deepEqual(commanded(b, 'cancel'), odd);
    assert.deepEqual(new Set(a.reads), even);
    assert.deepEqual(new Set(b.reads), odd);
  } finally {
    await tw.close();
  }
});

test('a put whose owner cannot be reached goes to the endpoint in use', async () => {
  const a = await node();
  const b = await node();
  nodes.push(a, b);
  const gone = `http://127.0.0.1:${await deadPort()}`;
  owners = () => Array.from({ length: PARTITIONS }, (_, p) => (p % 2 === 0 ? a.url : gone));
  const tw = new TickwheelClient({ endpoints: [a.url, b.url], reconnectInitialBackoffMs: 10 });
  try {
    await tw.touch('warm-up');
    await waitFor(() => tw.stats().partitionMapLoaded, 'the partition map read');
    const ids = Array.from({ length: 40 }, (_, i) => `g-${i}`);
    await Promise.all(ids.flatMap((id) => [tw.put({ id, delayMs: 60_000 }), tw.get(id)]));
    assert.deepEqual(commanded(a, 'put'), new Set(ids));
    assert.deepEqual(new Set(a.reads), new Set(ids));
    assert.equal(b.commands.length + b.reads.length, 0);
  } finally {
    await tw.close();
  }
});

test('a client of one endpoint reads no map and sends everything there', async () => {
  // nodes no earlier test's client knows: a map read still in flight from one of those cannot land here
  const a = await node();
  const b = await node();
  nodes.push(a, b);
  owners = () => Array.from({ length: PARTITIONS }, () => b.url);
  const tw = new TickwheelClient({ endpoint: a.url });
  try {
    await Promise.all(Array.from({ length: 20 }, (_, i) => tw.schedule({ id: `s-${i}`, delayMs: 60_000 })));
    assert.equal(tw.stats().partitionMapReads, 0);
    assert.equal(a.clusterReads + b.clusterReads, 0);
    assert.equal(a.creates.length, 20);
    assert.equal(b.creates.length, 0);
  } finally {
    await tw.close();
  }
});

test("an id's partition is the server's (values of core's Partitions.of)", async () => {
  const { partitionOf } = await import('../dist/impl/partition-map.js');
  const expected = { 'k-1': [249, 9], 'k-2': [95, 15], 'héllo': [122, 10], '😀x': [44, 12], 'abc-999': [108, 12] };
  for (const [id, [of256, of16]] of Object.entries(expected)) {
    assert.equal(partitionOf(id, 256), of256, id);
    assert.equal(partitionOf(id, 16), of16, id);
    assert.equal(partition(id), of16, id);
  }
});
