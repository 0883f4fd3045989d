#!/usr/bin/env node
// tickwheel (through its TypeScript client) side by side with BullMQ (a Queue with delayed jobs and a Worker in this
// process), on the same Redis, in the same run. Not part of the test suite: bench/README.md, "Node: BullMQ".
//
//   node bench/node/compare.mjs [--rounds 3] [--jar server/target/tickwheel.jar] [--seconds 5] [--warmup-s 5]
//        [--pending 20000] [--rate 1000] [--window-s 10] [--concurrency 64] [--batch 1000] [--store redis|rocksdb]
//        [--csv FILE] [--verbose]
//
// Each side first warms up (`warmup-s` of the single phase, and as long of each plain client; not measured).
// Each round starts a private redis-server and a tickwheel server on it (--store redis), so both sides use one Redis
// and nothing touches any other Redis; --store rocksdb gives tickwheel its embedded store in a temporary directory. Per side and round:
//   pending     20k timers due in an hour are created first and stay pending through the round;
//   single      `concurrency` schedules in flight, each due 1 s later, for `seconds`: tickwheel `schedule` (the client
//               gathers them into batch creates), BullMQ `queue.add(..., {delay: 1000})`;
//   batch       2 batches of `batch` timers in flight: tickwheel `schedule` x batch in one turn (one batch create),
//               BullMQ `queue.addBulk`;
//   (each phase waits until the timers of the one before have fired, so it measures its own firings only)
//   lateness    `rate` timers/s due 2 s after they are made, for `window-s`: received - due, at the subscription's
//               handler (tickwheel, WebSocket) or the Worker's processor (BullMQ).
// Two plain Node clients of tickwheel (no batching) run the single phase too, as references for the server's
// command path: `ws` schedule commands (`concurrency` in flight on one socket), and one `POST /v1/timers` each over a
// keep-alive http.Agent (`concurrency` sockets).
// CPU per operation: this process (client side; user+system) and the servers (tickwheel's JVM, redis-server), read
// from /proc over each phase, the plain clients' included. Medians over the rounds are printed with the machine's load
// average at start and end (also in --csv), and each round with --verbose.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as http from 'node:http';
import { Queue, Worker } from 'bullmq';
import { TickwheelClient } from 'tickwheel-client';
import { WebSocket } from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2), {
  rounds: 3, jar: resolve(here, '../../server/target/tickwheel.jar'), seconds: 5, pending: 20_000, rate: 1_000,
  'window-s': 10, 'warmup-s': 5, concurrency: 64, batch: 1_000, store: 'redis', csv: '', verbose: false,
});
const CLK_TCK = 100; // Linux USER_HZ: /proc/PID/stat times are in 1/100 s

function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || !(a.slice(2) in defaults)) {
      console.error(`unknown option ${a}; options: ${Object.keys(defaults).map((k) => `--${k}`).join(' ')}`);
      process.exit(2);
    }
    const k = a.slice(2);
    if (typeof defaults[k] === 'boolean') {
      out[k] = true;
    } else {
      const v = argv[++i];
      out[k] = typeof defaults[k] === 'number' ? Number(v) : v;
      if (typeof defaults[k] === 'number' && !(out[k] > 0)) {
        console.error(`--${k} must be a positive number, was ${v}`);
        process.exit(2);
      }
    }
  }
  return out;
}

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/** Spawns `cmd` and resolves once its output matches `ready`. */
async function startProcess(cmd, argv, ready, what) {
  const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const m = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${what} not ready within 120 s:\n${log}`)), 120_000);
    const on = (c) => {
      log += c;
      const found = ready.exec(log);
      if (found) {
        clearTimeout(timer);
        res(found);
      }
    };
    proc.stdout.setEncoding('utf8').on('data', on);
    proc.stderr.setEncoding('utf8').on('data', on);
    proc.on('exit', (code) => rej(new Error(`${what} exited with ${code}:\n${log}`)));
  });
  proc.stdout.removeAllListeners('data');
  proc.stderr.removeAllListeners('data');
  proc.stdout.resume();
  proc.stderr.resume();
  const exited = new Promise((r) => proc.once('exit', r));
  return { proc, match: m, stop: async () => { proc.kill('SIGKILL'); await exited; } };
}

/** CPU time of process `pid` so far, µs (utime + stime). */
function procCpuUs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / CLK_TCK);
}

function selfCpuUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Measures `body` (resolving with its operation count): ops/s and CPU µs per op of this process and `pids`. */
async function measure(pids, body) {
  const cpu0 = { self: selfCpuUs(), ...Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, procCpuUs(p)])) };
  const t0 = performance.now();
  const ops = await body();
  const ms = performance.now() - t0;
  const out = { ops, opsPerSec: ops / (ms / 1000), cpuUsPerOp: { client: (selfCpuUs() - cpu0.self) / ops } };
  for (const [k, p] of Object.entries(pids)) {
    out.cpuUsPerOp[k] = (procCpuUs(p) - cpu0[k]) / ops;
  }
  return out;
}

/** Runs `op` with `concurrency` calls in flight for `ms`; resolves with the calls completed. */
async function closedLoop(concurrency, ms, op) {
  const end = performance.now() + ms;
  let done = 0;
  let seq = 0;
  const lane = async () => {
    while (performance.now() < end) {
      await op(seq++);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return done;
}

function percentile(sorted, p) {
  if (sorted.length === 0) {
    return NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Makes `rate` timers/s for `windowS` via `make(id, dueAt)`; waits until `received()` holds them all (or 30 s more). */
async function latenessRun(rate, windowS, make, latencies) {
  const total = rate * windowS;
  const perTick = Math.max(1, Math.round(rate / 100));
  let made = 0;
  const failures = [];
  await new Promise((res) => {
    const t = setInterval(() => {
      for (let i = 0; i < perTick && made < total; i++, made++) {
        make(`late-${made}`, Date.now() + 2_000).catch((e) => failures.push(e));
      }
      if (made >= total) {
        clearInterval(t);
        res();
      }
    }, 10);
  });
  const deadline = Date.now() + 30_000;
  while (latencies.length < total - failures.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const sorted = Float64Array.from(latencies).sort();
  return { made: total, received: latencies.length, failed: failures.length, p50: percentile(sorted, 50),
    p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
}

async function tickwheelRound(redisUri, pids, dataDir) {
  const store = args.store === 'rocksdb' ? ['--store', 'rocksdb', '--data-dir', dataDir]
    : ['--store', 'redis', '--redis', redisUri];
  const server = await startProcess('java', ['-Xmx1g', '-jar', args.jar, '--host', '127.0.0.1', '--port', '0',
    ...store], /tickwheel listening on (http:\/\/\S+)/, 'tickwheel');
  const url = server.match[1];
  const serverPids = { ...pids, tickwheel: server.proc.pid };
  const tw = new TickwheelClient({ endpoint: url, maxQueued: 1_000_000 });
  const latencies = [];
  let fired = 0;
  let created = 0;
  const drained = () => drain(() => fired >= created, 'tickwheel firings');
  const sub = tw.subscribe(['bench', 'late'], undefined, (f) => {
    if (f.topic === 'late') {
      latencies.push(Date.now() - f.dueAt);
    } else {
      fired++;
    }
  });
  await sub.subscribed;
  try {
    const pend = [];
    for (let i = 0; i < args.pending; i++) {
      pend.push(tw.schedule({ id: `pending-${i}`, topic: 'pending', delayMs: 3_600_000 }));
    }
    await Promise.all(pend);
    // warm-up of the JIT and the connections: not measured
    created += await closedLoop(args.concurrency, args['warmup-s'] * 1000,
      (i) => tw.schedule({ id: `warm-${i}`, topic: 'bench', delayMs: 1_000 }));
    created += await wsSingles(url, args.concurrency, args['warmup-s'] * 1000, 'warm-ws');
    created += await postSingles(url, args.concurrency, args['warmup-s'] * 1000, 'warm-post');
    await drained();
    const batches0 = tw.stats().scheduleBatches;
    const single = await measure(serverPids, () => closedLoop(args.concurrency, args.seconds * 1000,
      (i) => tw.schedule({ id: `s-${i}`, topic: 'bench', delayMs: 1_000 })));
    single.timersPerBatch = single.ops / (tw.stats().scheduleBatches - batches0);
    created += single.ops;
    await drained();
    const batch = await measure(serverPids, async () => {
      const n = await closedLoop(2, args.seconds * 1000, async (b) => {
        const calls = [];
        for (let i = 0; i < args.batch; i++) {
          calls.push(tw.schedule({ id: `b-${b}-${i}`, topic: 'bench', delayMs: 1_000 }));
        }
        await Promise.all(calls);
      });
      return n * args.batch;
    });
    created += batch.ops;
    await drained();
    const plainWs = await measure(serverPids, () => wsSingles(url, args.concurrency, args.seconds * 1000));
    created += plainWs.ops;
    await drained();
    const plainPost = await measure(serverPids, () => postSingles(url, args.concurrency, args.seconds * 1000));
    created += plainPost.ops;
    await drained();
    const lateness = await latenessRun(args.rate, args['window-s'],
      (id, dueAt) => tw.schedule({ id, topic: 'late', at: dueAt }), latencies);
    return { single, batch, lateness, plainWs, plainPost };
  } finally {
    await tw.close();
    await server.stop();
  }
}

/** `concurrency` `schedule` commands in flight on one plain `ws` socket for `ms`: how many were answered 201. */
async function wsSingles(url, concurrency, ms, prefix = 'ws') {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/ws`, { perMessageDeflate: false });
  await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  const end = performance.now() + ms;
  let ref = 0;
  let ok = 0;
  let failed = 0;
  let inFlight = 0;
  await new Promise((res) => {
    const send = () => {
      inFlight++;
      const r = ref++;
      ws.send(`{"op":"schedule","ref":"${r}","timer":{"id":"${prefix}-${r}","topic":"bench","delayMs":1000}}`);
    };
    ws.on('message', (data) => {
      inFlight--;
      if (JSON.parse(String(data)).status === 201) ok++; else failed++;
      if (performance.now() < end) send(); else if (inFlight === 0) res();
    });
    for (let i = 0; i < concurrency; i++) send();
  });
  ws.close();
  if (failed > 0) console.error(`plain ws: ${failed} schedules not created`);
  return ok;
}

/** One `POST /v1/timers` each, `concurrency` in flight over a keep-alive agent, for `ms`: how many answered 201. */
async function postSingles(url, concurrency, ms, prefix = 'post') {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let failed = 0;
  const post = (i) => new Promise((res, rej) => {
    const body = `{"id":"${prefix}-${i}","topic":"bench","delayMs":1000}`;
    const req = http.request(`${url}/v1/timers`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body) } }, (r) => {
      r.resume();
      r.on('end', () => { if (r.statusCode !== 201) failed++; res(); });
    });
    req.on('error', rej);
    req.end(body);
  });
  const n = await closedLoop(concurrency, ms, post);
  agent.destroy();
  if (failed > 0) console.error(`plain POST: ${failed} schedules not created`);
  return n - failed;
}

async function bullmqRound(redisPort, pids) {
  const connection = { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null };
  const queue = new Queue('twbench', { connection });
  const latencies = [];
  let processed = 0;
  let added = 0;
  const drained = () => drain(() => processed >= added, 'BullMQ jobs');
  const worker = new Worker('twbench', async (job) => {
    if (job.name === 'late') {
      latencies.push(Date.now() - job.data.dueAt);
    } else if (job.name === 'bench') {
      processed++;
    }
  }, { connection, concurrency: 64, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } });
  await worker.waitUntilReady();
  try {
    for (let i = 0; i < args.pending; i += 1000) {
      await queue.addBulk(Array.from({ length: Math.min(1000, args.pending - i) }, (_, k) => ({
        name: 'pending', data: { n: i + k }, opts: { delay: 3_600_000, jobId: `pending-${i + k}` } })));
    }
    added += await closedLoop(args.concurrency, args['warmup-s'] * 1000,
      (i) => queue.add('bench', { i }, { delay: 1_000, jobId: `warm-${i}` }));
    await drained();
    const single = await measure(pids, () => closedLoop(args.concurrency, args.seconds * 1000,
      (i) => queue.add('bench', { i }, { delay: 1_000, jobId: `s-${i}` })));
    added += single.ops;
    await drained();
    const batch = await measure(pids, async () => {
      const n = await closedLoop(2, args.seconds * 1000, (b) => queue.addBulk(Array.from({ length: args.batch },
        (_, i) => ({ name: 'bench', data: { i }, opts: { delay: 1_000, jobId: `b-${b}-${i}` } }))));
      return n * args.batch;
    });
    added += batch.ops;
    await drained();
    const lateness = await latenessRun(args.rate, args['window-s'], (id, dueAt) => queue.add('late', { dueAt },
      { delay: Math.max(0, dueAt - Date.now()), jobId: id }), latencies);
    return { single, batch, lateness };
  } finally {
    await worker.close();
    await queue.close();
  }
}

/** Waits until `cond()` (the previous phase's timers have all fired), so no phase measures another's firings. */
async function drain(cond, what) {
  const end = Date.now() + 120_000;
  while (!cond()) {
    if (Date.now() > end) {
      throw new Error(`${what}: not all fired within 120 s`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main() {
  if (args.store !== 'redis' && args.store !== 'rocksdb') {
    console.error(`--store must be redis or rocksdb, was ${args.store}`);
    process.exit(2);
  }
  if (!existsSync(args.jar)) {
    console.error(`${args.jar} is missing: mvn -q -pl server -am -DskipTests package`);
    process.exit(2);
  }
  const rounds = { tickwheel: [], bullmq: [] };
  const loadStart = loadavg()[0];
  for (let r = 1; r <= args.rounds; r++) {
    for (const side of r % 2 ? ['tickwheel', 'bullmq'] : ['bullmq', 'tickwheel']) {
      const dir = mkdtempSync(join(tmpdir(), 'tw-bench-redis-'));
      const port = await freePort();
      const redis = await startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '',
        '--appendonly', 'no', '--dir', dir], /Ready to accept connections/, 'redis-server');
      try {
        const pids = { redis: redis.proc.pid };
        const res = side === 'tickwheel' ? await tickwheelRound(`redis://127.0.0.1:${port}`, pids, join(dir, 'tw'))
          : await bullmqRound(port, pids);
        rounds[side].push(res);
        if (args.verbose) {
          console.log(`round ${r} ${side}: ${JSON.stringify(res)}`);
        }
      } finally {
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const rows = [];
  const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const med = (side, f) => median(rounds[side].map(f));
  const metrics = [
    ['single schedules/s', (x) => x.single.opsPerSec, 0],
    ['batch schedules/s', (x) => x.batch.opsPerSec, 0],
    [`lateness p50 ms (${args.pending} pending, ${args.rate}/s)`, (x) => x.lateness.p50, 0],
    ['lateness p99 ms', (x) => x.lateness.p99, 0],
    ['  timers per batch create (the TS client gathers the single schedules)', (x) => x.single.timersPerBatch, 1,
      () => NaN],
    ['client CPU µs per single schedule', (x) => x.single.cpuUsPerOp.client, 1],
    ['server CPU µs per single schedule (tickwheel JVM + redis)', (x) => (x.single.cpuUsPerOp.tickwheel ?? 0)
      + x.single.cpuUsPerOp.redis, 1],
    ['  of which redis-server', (x) => x.single.cpuUsPerOp.redis, 1],
    ['client CPU µs per batched schedule', (x) => x.batch.cpuUsPerOp.client, 2],
    ['server CPU µs per batched schedule (tickwheel JVM + redis)', (x) => (x.batch.cpuUsPerOp.tickwheel ?? 0)
      + x.batch.cpuUsPerOp.redis, 2],
    ['lateness: received / made', (x) => x.lateness.received / x.lateness.made, 3],
    ['single schedules/s, plain ws commands (no batching; ratio to BullMQ single)', (x) => x.plainWs?.opsPerSec, 0,
      (x) => x.single.opsPerSec],
    ['  client CPU µs per ws command', (x) => x.plainWs?.cpuUsPerOp.client, 1, () => NaN],
    ['  server CPU µs per ws command (tickwheel JVM + redis)', (x) => x.plainWs
      && x.plainWs.cpuUsPerOp.tickwheel + x.plainWs.cpuUsPerOp.redis, 1, () => NaN],
    ['single schedules/s, one POST each (keep-alive; ratio to BullMQ single)', (x) => x.plainPost?.opsPerSec, 0,
      (x) => x.single.opsPerSec],
    ['  client CPU µs per POST', (x) => x.plainPost?.cpuUsPerOp.client, 1, () => NaN],
    ['  server CPU µs per POST (tickwheel JVM + redis)', (x) => x.plainPost
      && x.plainPost.cpuUsPerOp.tickwheel + x.plainPost.cpuUsPerOp.redis, 1, () => NaN],
  ];
  const loadEnd = loadavg()[0];
  console.log(`\nmedians of ${args.rounds} rounds (same run, same Redis per round); load average (1 min) at start `
    + `${loadStart.toFixed(2)}, at end ${loadEnd.toFixed(2)}`);
  console.log(`| | tickwheel (TS client, ${args.store === 'redis' ? 'Redis' : 'RocksDB'} store) | BullMQ 6.7.0 | ratio |`);
  console.log('|---|---:|---:|---:|');
  for (const [name, f, d, g = f] of metrics) {
    const a = med('tickwheel', f);
    const b = med('bullmq', g);
    console.log(`| ${name} | ${fmt(a, d)} | ${fmt(b, d)} | ${fmt(a / b, 2)}x |`);
    rows.push([name, a, b]);
  }
  rows.push(['load average (1 min, the machine) at start', loadStart, loadStart],
    ['load average (1 min, the machine) at end', loadEnd, loadEnd]);
  if (args.csv) {
    writeFileSync(args.csv, `metric,tickwheel,bullmq\n${rows.map((r) => `"${r[0]}",${r[1]},${r[2]}`).join('\n')}\n`);
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
