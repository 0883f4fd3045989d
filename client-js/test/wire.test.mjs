// What the client writes on the wire and how it reads odd answers, against a scripted HTTP server (no JVM).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { ErrorCodes, TickwheelClient, TickwheelError } from '../dist/node.js';
import { rejection, waitFor } from './support/server.mjs';

const requests = [];
/** path -> (request body as JSON) -> [status, answer object or text] */
const script = new Map();
let server;
let url;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c) => { body += c; }).on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const answer = script.get(req.url);
      // an answer is [status, object or text], or a promise of one (an answer held until the test lets it go)
      Promise.resolve(answer ? answer(body === '' ? undefined : JSON.parse(body)) : [404, { error: { code: 'not_found', message: 'no' } }])
        .then(([status, out]) => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(typeof out === 'string' ? out : JSON.stringify(out));
        });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('requests with a body say Content-Type: application/json; every request carries the token', async () => {
  script.set('/v1/timers/batch', (b) => [200, { results: b.timers.map((t) => ({ status: 201, timer: { ...t, nextDueAt: 1 } })) }]);
  script.set('/v1/timers/touch', (b) => [200, { results: b.ids.map((id) => ({ id, status: 200, nextDueAt: 42 })) }]);
  script.set('/v1/timers/x', () => [200, { id: 'x', nextDueAt: 7 }]);
  script.set('/v1/timers/x/pause', () => [200, { id: 'x', paused: true }]);
  const tw = new TickwheelClient({ endpoint: url, token: 's3cret' });
  try {
    requests.length = 0;
    await Promise.all([tw.schedule({ id: 'x', delayMs: 5, payload: { a: [1, 'b'] } }), tw.touch('x', 9), tw.get('x'),
      tw.pause('x')]);
    const byUrl = Object.fromEntries(requests.map((r) => [r.url, r]));
    for (const r of requests) {
      assert.equal(r.headers.authorization, 'Bearer s3cret', r.url);
    }
    assert.equal(byUrl['/v1/timers/batch'].headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(byUrl['/v1/timers/batch'].body), { timers: [{ id: 'x', delayMs: 5, payload: { a: [1, 'b'] } }] });
    assert.equal(byUrl['/v1/timers/touch'].headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(byUrl['/v1/timers/touch'].body), { ids: ['x'], delayMs: 9 });
    assert.equal(byUrl['/v1/timers/x'].headers['content-type'], undefined, 'a GET has no body');
  } finally {
    await tw.close();
  }
});

test('a schedule made while batches are in flight waits until half of those outstanding can go together', async () => {
  const held = [];
  script.set('/v1/timers/batch', (b) => new Promise((release) => held.push(() => release([200,
    { results: b.timers.map((t) => ({ status: 201, timer: { ...t, nextDueAt: 1 } })) }]))));
  const tw = new TickwheelClient({ endpoint: url });
  const afterFlush = () => new Promise((r) => setImmediate(r));
  try {
    requests.length = 0;
    const all = [];
    const schedule = async (id) => {
      const p = tw.schedule({ id, delayMs: 1_000 });
      p.catch(() => {}); // awaited below; a failed assertion before that leaves it to close()
      all.push(p);
      await afterFlush();
    };
    await schedule('a');
    assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [1, 0], 'a sent at once: nothing in flight');
    await schedule('b');
    assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [2, 0], 'b sent: one is half of the two outstanding');
    await schedule('c');
    assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [2, 1], 'c waits: 1 of 3 outstanding');
    await schedule('d');
    assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [3, 0], 'c and d sent together');
    for (const id of ['e', 'f', 'g']) {
      await schedule(id);
      assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [3, all.length - 4], `${id} waits`);
    }
    await schedule('h');
    assert.deepEqual([tw.stats().scheduleBatches, tw.queued()], [4, 0], 'e to h sent together');
    await waitFor(() => held.length === 4, 'the server holding the 4 batches');
    held.forEach((release) => release());

    assert.deepEqual((await Promise.all(all)).map((t) => t.id), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    // the batches may reach the server in any order (one connection each)
    assert.deepEqual(requests.filter((r) => r.url === '/v1/timers/batch')
      .map((r) => JSON.parse(r.body).timers.map((t) => t.id).join('')).sort(), ['a', 'b', 'cd', 'efgh']);
  } finally {
    await tw.close();
  }
});

test('odd answers become typed errors', async () => {
  const tw = new TickwheelClient({ endpoint: url });
  try {
    script.set('/v1/timers/batch', () => [503, { error: { code: 'unavailable', message: 'store down: not applied' } }]);
    let e = (await rejection(tw.schedule({ delayMs: 1 }))).error;
    assert.deepEqual([e.status, e.code, e.mayHaveApplied], [503, 'unavailable', false]);
    script.set('/v1/timers/batch', () => [503, { error: { code: 'unavailable', message: 'store timed out' } }]);
    e = (await rejection(tw.schedule({ delayMs: 1 }))).error;
    assert.equal(e.mayHaveApplied, true, 'a 503 that does not say "not applied" may have been applied');
    script.set('/v1/timers/batch', () => [200, { results: [] }]);
    e = (await rejection(tw.schedule({ delayMs: 1 }))).error;
    assert.deepEqual([e.status, e.code, e.mayHaveApplied], [0, ErrorCodes.PROTOCOL, true]);
    script.set('/v1/timers/batch', () => [502, '<html>bad gateway</html>']);
    e = (await rejection(tw.schedule({ delayMs: 1 }))).error;
    assert.ok(e instanceof TickwheelError);
    assert.deepEqual([e.status, e.code], [502, 'status_502']);
    script.set('/v1/timers/touch', (b) => [200, { results: b.ids.map((id) => ({ id, status: 404,
      error: { code: 'not_found', message: `no timer ${id}` } })) }]);
    e = (await rejection(tw.touch('gone'))).error;
    assert.deepEqual([e.status, e.code, e.message], [404, 'not_found', 'no timer gone']);
    const cyclic = {};
    cyclic.self = cyclic;
    e = (await rejection(tw.schedule({ delayMs: 1, payload: cyclic }))).error;
    assert.deepEqual([e.code, e.field], ['invalid_argument', 'payload']);
  } finally {
    await tw.close();
  }
});

test('a touch made while its id is in flight waits as the single follow-up', async () => {
  let calls = 0;
  script.set('/v1/timers/touch', (b) => [200, { results: b.ids.map((id) => ({ id, status: 200, nextDueAt: ++calls })) }]);
  const tw = new TickwheelClient({ endpoint: url });
  try {
    requests.length = 0;
    const first = tw.touch('k');
    // the first batch leaves in the client's next-turn flush, queued before this one; its answer needs I/O, so the
    // touches below are made while it is in flight
    await new Promise((r) => setImmediate(r));
    const followUps = [tw.touch('k'), tw.touch('k'), tw.touch('k')];
    assert.equal(tw.queued(), 1, 'one follow-up waits');
    const answers = await Promise.all([first, ...followUps]);
    assert.equal(new Set(answers.slice(1)).size, 1, 'the follow-ups share one answer');
    assert.ok(answers[1] > answers[0], 'answered by a request sent after the first');
    assert.equal(requests.filter((r) => r.url === '/v1/timers/touch').length, 2);
    assert.equal(tw.stats().mergedTouches, 2);
  } finally {
    await tw.close();
  }
});
