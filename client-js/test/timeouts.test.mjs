// A server that accepts connections and answers nothing: every call fails at its timeout; close() settles all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ErrorCodes, TickwheelClient, TickwheelError } from '../dist/node.js';
import { deadPort, rejection, silentServer, waitFor } from './support/server.mjs';

const TIMEOUT_MS = 600;
/** Late by at most this much past the timeout (a sweep runs every quarter of it; a busy machine adds more). */
const SLACK_MS = 2_000;
let silent;

before(async () => {
  silent = await silentServer();
});

after(async () => {
  await silent?.close();
});

function assertTimedOut({ error, ms }, what) {
  assert.ok(error instanceof TickwheelError, `${what}: ${error}`);
  assert.equal(error.code, ErrorCodes.TIMEOUT, `${what}: ${error}`);
  assert.equal(error.status, 0);
  assert.ok(ms >= TIMEOUT_MS - 5 && ms <= TIMEOUT_MS + SLACK_MS, `${what} ended after ${ms.toFixed(0)} ms`);
}

test('every kind of call fails at its timeout when the server answers nothing', async () => {
  const tw = new TickwheelClient({ endpoint: silent.url, requestTimeoutMs: TIMEOUT_MS, connectTimeoutMs: 5_000,
    maxScheduleBatchesInFlight: 1, maxScheduleBatchTimers: 1 });
  try {
    const t0 = performance.now();
    const calls = {
      schedule: tw.schedule({ id: 's-1', delayMs: 1000 }),
      // waits behind the first batch (one batch in flight at most)
      scheduleQueued: tw.schedule({ id: 's-2', delayMs: 1000 }),
      touch: tw.touch('t-1'),
      put: tw.put({ id: 'p-1', delayMs: 1000 }),
      cancel: tw.cancel('p-2'),
      get: tw.get('g-1'),
      list: tw.list(),
      pause: tw.pause('x'),
      health: tw.health(),
      wheel: tw.wheel(),
    };
    const outcomes = await Promise.all(Object.entries(calls).map(async ([k, p]) => [k, await rejection(p, t0)]));
    for (const [what, outcome] of outcomes) {
      assertTimedOut(outcome, what);
    }
    const byName = Object.fromEntries(outcomes);
    assert.equal(byName.schedule.error.mayHaveApplied, true, 'a sent batch may have been applied');
    assert.equal(byName.get.error.mayHaveApplied, false, 'a read applies nothing');
    assert.ok(silent.accepted() >= 2);
    // a call rejected by the sweep may leave its exchange to end at its own timer, moments later
    await waitFor(() => tw.inFlight() + tw.queued() === 0, 'nothing left in flight or queued');
  } finally {
    await tw.close();
  }
});

test('a subscription to a server that answers nothing never confirms and close() settles it', async () => {
  const tw = new TickwheelClient({ endpoint: silent.url, connectTimeoutMs: 300, reconnectInitialBackoffMs: 50,
    reconnectMaxBackoffMs: 100 });
  const sub = tw.subscribe(['*'], undefined, () => assert.fail('no firing expected'), () => {});
  const accepted = silent.accepted();
  await waitFor(() => silent.accepted() >= accepted + 2, 'the subscription gave up a silent handshake and retried');
  await tw.close();
  const { error } = await rejection(sub.subscribed);
  assert.equal(error.code, ErrorCodes.CLIENT_CLOSED);
});

test('close() settles every pending call at once', async () => {
  const tw = new TickwheelClient({ endpoint: silent.url, requestTimeoutMs: 60_000 });
  const pending = [tw.schedule({ delayMs: 1 }), tw.touch('a'), tw.put({ id: 'b', delayMs: 1 }), tw.cancel('c'),
    tw.get('d')];
  await waitFor(() => tw.inFlight() >= 2, 'the batch create and the batch touch were sent');
  const t0 = performance.now();
  await tw.close();
  const outcomes = await Promise.allSettled(pending);
  assert.ok(performance.now() - t0 < 2_000, 'settled promptly');
  for (const o of outcomes) {
    assert.equal(o.status, 'rejected');
    assert.equal(o.reason.code, ErrorCodes.CLIENT_CLOSED, String(o.reason));
  }
  const after = await rejection(tw.schedule({ delayMs: 1 }));
  assert.equal(after.error.code, ErrorCodes.CLIENT_CLOSED);
});

test('with no server at all, calls fail at their timeout, not applied; reads fail at once', async () => {
  const tw = new TickwheelClient({ endpoint: `http://127.0.0.1:${await deadPort()}`, requestTimeoutMs: TIMEOUT_MS,
    reconnectInitialBackoffMs: 20, reconnectMaxBackoffMs: 100 });
  try {
    const t0 = performance.now();
    const writes = Promise.all(Object.entries({ schedule: tw.schedule({ id: 'n-1', delayMs: 1 }), touch: tw.touch('n-2'),
      put: tw.put({ id: 'n-3', delayMs: 1 }), cancel: tw.cancel('n-4') }).map(async ([k, p]) => [k, await rejection(p, t0)]));
    const read = await rejection(tw.get('n-5'));
    assert.equal(read.error.code, ErrorCodes.CONNECTION_LOST, String(read.error));
    assert.equal(read.error.mayHaveApplied, false);
    assert.ok(read.ms < TIMEOUT_MS, 'a read is not retried');
    for (const [what, outcome] of await writes) {
      assertTimedOut(outcome, what);
      assert.equal(outcome.error.mayHaveApplied, false, `${what}: never sent, so not applied`);
      assert.match(outcome.error.message, /ECONNREFUSED|connect/, `${what} names the last failure`);
    }
  } finally {
    await tw.close();
  }
});
