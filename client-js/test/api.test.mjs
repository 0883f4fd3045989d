// Every call of the client against the real server (memory store): answers, typed errors, batching, backpressure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ErrorCodes, TickwheelClient, TickwheelError } from '../dist/node.js';
import * as browser from '../dist/browser.js';
import { deadPort, freezableProxy, rejection, startServer, waitFor } from './support/server.mjs';

let server;
let tw;

/** Requests the server counted on `route` (its Prometheus text), by method and route. */
async function served(route) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('tickwheel_http_requests_seconds_count{') && line.includes(`route="${route}"`)) {
      n += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return n;
}

before(async () => {
  server = await startServer(['--store', 'memory', '--tick-ms', '10']);
  tw = new TickwheelClient({ endpoint: server.url, requestTimeoutMs: 10_000 });
});

after(async () => {
  await tw?.close();
  await server?.stop();
});

describe('timers', () => {
  test('schedule, get, list, touch, pause, resume, fire, cancel', async () => {
    const t = await tw.schedule({ id: 'a-1', topic: 'api', delayMs: 60_000, payload: { n: 1 } });
    assert.equal(t.id, 'a-1');
    assert.equal(t.topic, 'api');
    assert.deepEqual(t.payload, { n: 1 });
    assert.ok(t.nextDueAt >= t.createdAt + 59_000, JSON.stringify(t));

    const got = await tw.get('a-1');
    assert.equal(got.nextDueAt, t.nextDueAt);

    await tw.schedule({ id: 'a-2', topic: 'api', delayMs: 120_000 });
    const page = await tw.list({ topic: 'api', limit: 1 });
    assert.deepEqual(page.timers.map((x) => x.id), ['a-1']);
    assert.notEqual(page.next, null);
    const page2 = await tw.list({ topic: 'api', limit: 1, cursor: page.next });
    assert.deepEqual(page2.timers.map((x) => x.id), ['a-2']);

    const before = Date.now();
    const due = await tw.touch('a-1', 30_000);
    assert.ok(due >= before + 30_000 && due <= Date.now() + 30_000 + 100, `touch answered ${due}`);
    const ownDue = await tw.touch('a-1');
    assert.ok(ownDue >= before + 60_000, `touch with its own delayMs answered ${ownDue}`);

    assert.equal((await tw.pause('a-1')).paused, true);
    assert.notEqual((await tw.resume('a-1')).paused, true);
    const fired = await tw.fire('a-1');
    assert.equal(fired.id, 'a-1');

    await tw.cancel('a-2');
    const gone = await rejection(tw.get('a-2'));
    assert.ok(gone.error instanceof TickwheelError);
    assert.equal(gone.error.status, 404);
    assert.equal(gone.error.code, 'not_found');
    const again = await rejection(tw.cancel('a-2'));
    assert.equal(again.error.code, 'not_found');
  });

  test('put creates and replaces; calendars and callbacks carry every field', async () => {
    const created = await tw.put({
      id: 'report', topic: 'jobs', cron: '0 9 * * 1-5', kind: 'cron', timeZone: 'Europe/Amsterdam', jitterMs: 30_000,
      dstGap: 'shift', dstOverlap: 'once', misfire: 'skip', endAt: Date.now() + 400 * 86_400_000,
      callback: { url: 'https://hooks.example.com/tw', maxAttempts: 5, timeoutMs: 2_000, minBackoffMs: 1_000,
        maxBackoffMs: 60_000 },
    });
    assert.equal(created.kind, 'cron');
    assert.equal(created.cron, '0 9 * * 1-5');
    assert.equal(created.timeZone, 'Europe/Amsterdam');
    assert.equal(created.jitterMs, 30_000);
    assert.equal(created.callback.url, 'https://hooks.example.com/tw');
    assert.equal(created.callback.maxAttempts, 5);
    assert.equal(created.upcoming.length, 5);
    const replaced = await tw.put({ id: 'report', topic: 'jobs', kind: 'fixed-rate', periodMs: 60_000, maxFirings: 3,
      at: new Date(Date.now() + 60_000).toISOString() });
    assert.equal(replaced.kind, 'fixed-rate');
    assert.equal(replaced.maxFirings, 3);
    await tw.cancel('report');
  });

  test('bad input gets the server\'s error, naming its field, as a typed error', async () => {
    const cases = [
      [tw.schedule({ id: 'bad-1', delayMs: -5 }), 'delayMs'],
      [tw.schedule({ id: 'bad id!', delayMs: 5 }), 'id'],
      [tw.schedule({ id: 'bad-2', kind: 'cron', cron: '0 9 * * *', timeZone: 'Mars/Base' }), 'timeZone'],
      [tw.put({ id: 'bad-3', kind: 'cron', cron: '0 9 * * *', timeZone: 'Mars/Base' }), 'timeZone'],
      [tw.put({ id: 'bad-4', delayMs: 1000, callback: { url: 'ftp://example.com/x' } }), 'callback.url'],
      [tw.schedule({ id: 'bad-5', kind: 'fixed-rate', periodMs: 1000, misfire: 'often' }), 'misfire'],
    ];
    const outcomes = await Promise.allSettled(cases.map(([call]) => call));
    for (let i = 0; i < cases.length; i++) {
      const field = cases[i][1];
      assert.equal(outcomes[i].status, 'rejected');
      const error = outcomes[i].reason;
      assert.ok(error instanceof TickwheelError, String(error));
      assert.equal(error.status, 400, String(error));
      assert.equal(error.code, 'invalid_argument');
      assert.equal(error.field, field, String(error));
      assert.equal(error.mayHaveApplied, false);
    }
    await tw.schedule({ id: 'dup', delayMs: 60_000 });
    const dup = await rejection(tw.schedule({ id: 'dup', delayMs: 60_000 }));
    assert.equal(dup.error.status, 409);
    assert.equal(dup.error.code, 'already_exists');
    const missing = await rejection(tw.touch('no-such-timer'));
    assert.equal(missing.error.status, 404);
    const neg = await rejection(tw.touch('dup', -1));
    assert.equal(neg.error.field, 'delayMs');
    const noId = await rejection(tw.put({ delayMs: 5 }));
    assert.equal(noId.error.field, 'id');
    await tw.cancel('dup');
  });
});

describe('topics, deliveries, wheel, cluster, health', () => {
  test('each answers as the contract says', async () => {
    await tw.schedule({ id: 'tp-1', topic: 'held', delayMs: 60_000 });
    const paused = await tw.pauseTopic('held');
    assert.deepEqual([paused.topic, paused.paused], ['held', true]);
    const topics = await tw.listTopics({ topic: 'held' });
    assert.equal(topics.topics[0].pending, 1);
    assert.equal((await tw.resumeTopic('held')).paused, false);

    const deliveries = await tw.listDeliveries({ state: 'dead', limit: 10 });
    assert.ok(Array.isArray(deliveries.deliveries));
    assert.equal((await rejection(tw.getDelivery('msg_999999'))).error.status, 404);
    assert.equal((await rejection(tw.retryDelivery('msg_999999'))).error.status, 404);
    const badState = await rejection(tw.listDeliveries({ state: 'lost' }));
    assert.equal(badState.error.status, 400);

    const wheel = await tw.wheel();
    assert.equal(wheel.tickMs, 10);
    assert.ok(wheel.levels.length > 0);
    const cluster = await tw.cluster();
    assert.equal(cluster.nodes.length, 1);
    const health = await tw.health();
    assert.equal(health.status, 'up');
    await tw.cancel('tp-1');
  });
});

describe('batching and backpressure', () => {
  test('schedules made together go as batch creates, each of half of those outstanding', async () => {
    const before = await served('/v1/timers/batch');
    const singles = await served('/v1/timers');
    const batchesBefore = tw.stats().scheduleBatches;
    const all = await Promise.all(Array.from({ length: 500 }, (_, i) =>
      tw.schedule({ id: `b-${i}`, topic: 'batch', delayMs: 3_600_000 })));
    assert.deepEqual(all.map((t) => t.id), Array.from({ length: 500 }, (_, i) => `b-${i}`));
    // from an idle client: 250 (half of the 500 outstanding), then the other 250 while the first is in flight
    const batches = tw.stats().scheduleBatches - batchesBefore;
    assert.equal(batches, 2);
    await waitFor(async () => (await served('/v1/timers/batch')) - before === 2, 'the server counted two batches');
    assert.equal(await served('/v1/timers'), singles, 'no single creates');
    // one bad item fails alone
    const mixed = await Promise.allSettled([tw.schedule({ id: 'b-ok', delayMs: 1000 }),
      tw.schedule({ id: 'b-bad', delayMs: -1 }), tw.schedule({ id: 'b-0', delayMs: 1000 })]);
    assert.deepEqual(mixed.map((r) => r.status), ['fulfilled', 'rejected', 'rejected']);
    assert.equal(mixed[1].reason.field, 'delayMs');
    assert.equal(mixed[2].reason.code, 'already_exists');
  });

  test('touches are merged per id and sent as batch touches', async () => {
    await Promise.all(Array.from({ length: 200 }, (_, i) => tw.schedule({ id: `t-${i}`, delayMs: 3_600_000 })));
    const before = tw.stats();
    const requestsBefore = await served('/v1/timers/touch');
    const same = await Promise.all(Array.from({ length: 100 }, () => tw.touch('t-0', 50_000)));
    assert.equal(new Set(same).size, 1, 'one touch answered all callers');
    const distinct = await Promise.all(Array.from({ length: 200 }, (_, i) => tw.touch(`t-${i}`, 60_000)));
    assert.equal(distinct.length, 200);
    const s = tw.stats();
    assert.equal(s.mergedTouches - before.mergedTouches, 99);
    assert.equal(s.touchBatches - before.touchBatches, 2);
    await waitFor(async () => (await served('/v1/timers/touch')) - requestsBefore === 2, 'two batch touches served');
  });

  test('a full queue fails fast with queue_full', async () => {
    const small = new TickwheelClient({ endpoint: server.url, maxQueued: 10, maxInFlight: 1 });
    try {
      const calls = Array.from({ length: 12 }, (_, i) => small.schedule({ id: `q-${i}`, delayMs: 3_600_000 }));
      const results = await Promise.allSettled(calls);
      const full = results.filter((r) => r.status === 'rejected');
      assert.equal(full.length, 2);
      for (const r of full) {
        assert.equal(r.reason.code, ErrorCodes.QUEUE_FULL);
        assert.equal(r.reason.mayHaveApplied, false);
      }
      // the command socket is not open yet: 10 wait for it, 2 are refused
      const cmds = Array.from({ length: 12 }, (_, i) => small.put({ id: `qp-${i}`, delayMs: 3_600_000 }));
      const putResults = await Promise.allSettled(cmds);
      assert.equal(putResults.filter((r) => r.status === 'rejected' && r.reason.code === 'queue_full').length, 2);
      assert.equal(putResults.filter((r) => r.status === 'fulfilled').length, 10);
    } finally {
      await small.close();
    }
  });

  test('an endpoint that cannot be reached is skipped for the next', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const c = new TickwheelClient({ endpoints: [dead, server.url], reconnectInitialBackoffMs: 10 });
    try {
      const t = await c.schedule({ id: 'ep-1', delayMs: 3_600_000 });
      assert.equal(t.id, 'ep-1');
      assert.equal((await c.put({ id: 'ep-2', delayMs: 3_600_000 })).id, 'ep-2');
    } finally {
      await c.close();
    }
  });

  test('options are checked, naming the option', () => {
    assert.throws(() => new TickwheelClient({ endpoint: 'ftp://x' }), /endpoint must be http/);
    assert.throws(() => new TickwheelClient({ maxInFlight: 0 }), /maxInFlight must be an integer in \[1, 1000000\], was 0/);
    assert.throws(() => new TickwheelClient({ endpoints: ['http://a:1', 'http://a:1'] }), /endpoints\[1\].*twice/);
    assert.throws(() => new TickwheelClient({ reconnectInitialBackoffMs: 500, reconnectMaxBackoffMs: 100 }),
      /reconnectMaxBackoffMs/);
  });
});

describe('the browser entry', () => {
  test('answers over fetch as the node entry does (HTTP calls; Node 20 has no global WebSocket)', async () => {
    const b = new browser.TickwheelClient({ endpoint: server.url });
    try {
      const t = await b.schedule({ id: 'br-1', delayMs: 3_600_000, payload: 'p' });
      assert.equal(t.payload, 'p');
      assert.equal((await b.get('br-1')).id, 'br-1');
      assert.equal(await b.touch('br-1', 1_000) > Date.now(), true);
      const bad = await rejection(b.schedule({ id: 'br-2', delayMs: -1 }));
      assert.ok(bad.error instanceof browser.TickwheelError);
      assert.equal(bad.error.field, 'delayMs');
    } finally {
      await b.close();
    }
  });
});

describe('a connection that goes silent', () => {
  test('commands are written again and the subscription resumes, on fresh connections', async () => {
    const proxy = await freezableProxy(server.port);
    const c = new TickwheelClient({ endpoint: proxy.url, idleTimeoutMs: 600, requestTimeoutMs: 10_000,
      reconnectInitialBackoffMs: 50, reconnectMaxBackoffMs: 200 });
    try {
      const got = [];
      const sub = c.subscribe(['silent'], undefined, (f) => got.push(f), () => {});
      await sub.subscribed;
      await c.put({ id: 'sl-0', topic: 'other', delayMs: 3_600_000 }); // the command socket is open
      proxy.freeze();
      const t0 = performance.now();
      const put = c.put({ id: 'sl-1', topic: 'other', delayMs: 3_600_000 }); // written into the void
      const ids = Array.from({ length: 10 }, (_, i) => `sl-f-${i}`);
      await Promise.all(ids.map((id, i) => tw.schedule({ id, topic: 'silent', delayMs: 50 + 20 * i }))); // direct
      assert.equal((await put).id, 'sl-1');
      const ms = performance.now() - t0;
      assert.ok(ms >= 600 && ms < 8_000, `the put was answered on a new connection after ${ms.toFixed(0)} ms`);
      await waitFor(() => got.length >= ids.length, `the ${ids.length} firings made while the socket was silent`);
      assert.deepEqual(got.map((f) => f.id).sort(), [...ids].sort(), 'each once');
      assert.ok(sub.reconnects >= 1);
      assert.equal(c.stats().commandConnections, 2);
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});
