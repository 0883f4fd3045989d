// The real tickwheel server (server/target/tickwheel.jar) as a child process, and helpers for the tests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const JAR = process.env.TICKWHEEL_JAR ?? resolve(here, '../../../server/target/tickwheel.jar');
const LISTENING = /tickwheel listening on (https?:\/\/\S+)/;

/** A private data directory, removed by `cleanup`. */
export function tempDir(prefix = 'tw-js-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Starts the jar with `args` (e.g. ['--store', 'memory']) and `--port` (0 unless given); resolves once it printed its
 * listening line, with { url, port, proc, kill9(), stop() }. Fails after `startMs` without that line.
 */
export async function startServer(args, { port = 0, startMs = 60_000 } = {}) {
  if (!existsSync(JAR)) {
    throw new Error(`${JAR} is missing: build it first (mvn -q -pl server -am -DskipTests package)`);
  }
  const proc = spawn('java', ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', JAR,
    '--host', '127.0.0.1', '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no listening line within ${startMs} ms:\n${log}`));
    }, startMs);
    const onData = (chunk) => {
      log += chunk;
      const m = LISTENING.exec(log);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    proc.stdout.setEncoding('utf8').on('data', onData);
    proc.stderr.setEncoding('utf8').on('data', (c) => { log += c; });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${log}`));
    });
  });
  proc.stdout.removeAllListeners('data');
  proc.stdout.resume();
  proc.stderr.removeAllListeners('data');
  proc.stderr.resume();
  const exited = new Promise((r) => proc.once('exit', r));
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    /** kill -9, resolved once the process is gone. */
    async kill9() {
      proc.kill('SIGKILL');
      await exited;
    },
    /** SIGTERM, then SIGKILL after 10 s; resolved once the process is gone. */
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        return;
      }
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** A TCP server that accepts connections and never answers: { url, port, accepted(), close() }. */
export async function silentServer() {
  const sockets = new Set();
  let accepted = 0;
  const srv = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accepted: () => accepted,
    close: () => new Promise((r) => {
      for (const s of sockets) {
        s.destroy();
      }
      srv.close(() => r());
    }),
  };
}

/** A port nothing listens on (bound, then freed). */
export async function deadPort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Resolves once `cond()` is truthy (checked every 10 ms); rejects after `timeoutMs` with `what`. */
export async function waitFor(cond, what, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `promise`'s rejection (fails when it resolves), with how long it took since `t0` (default: now), ms. */
export async function rejection(promise, t0 = performance.now()) {
  let v;
  try {
    v = await promise;
  } catch (e) {
    return { error: e, ms: performance.now() - t0 };
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Whether `redis-server` is on the PATH. */
export function hasRedisServer() {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** A private redis-server (no persistence) on a free port: { uri, stop() }. */
export async function startRedis() {
  const dir = tempDir('tw-js-redis-');
  const port = await deadPort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', dir, '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server not ready within 20 s:\n${log}`)), 20_000);
    proc.stdout.setEncoding('utf8').on('data', (c) => {
      log += c;
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolveReady();
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${log}`));
    });
  });
  proc.stdout.removeAllListeners('data');
  proc.stdout.resume();
  proc.stderr.resume();
  const exited = new Promise((r) => proc.once('exit', r));
  return {
    uri: `redis://127.0.0.1:${port}`,
    async stop() {
      proc.kill('SIGKILL');
      await exited;
      cleanup(dir);
    },
  };
}

/**
 * A TCP proxy to 127.0.0.1:`targetPort` that can black-hole the connections it holds (`freeze()`: they stay open and
 * carry nothing more either way, like a peer that hung or a cut-off path); connections made later pass again.
 */
export async function freezableProxy(targetPort) {
  const live = new Set();
  const srv = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream, frozen: false };
    live.add(pair);
    client.on('data', (d) => { if (!pair.frozen) upstream.write(d); });
    upstream.on('data', (d) => { if (!pair.frozen) client.write(d); });
    const end = () => {
      live.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    freeze() {
      for (const p of live) {
        p.frozen = true;
      }
    },
    close: () => new Promise((r) => {
      for (const p of live) {
        p.client.destroy();
        p.upstream.destroy();
      }
      srv.close(() => r());
    }),
  };
}
