// Plain WebSocket `schedule` commands (package `ws`, no batching): CONCURRENCY commands in flight on one socket to
// URL/v1/ws for SECONDS seconds, each a new timer due in 1 h (nothing fires during a run). Prints
// "schedules N seconds S errors E" (N: answers with status 201; E: any other answer).
// The command path's load in bench/wrk/commands.sh; compare.mjs's plain ws mode does the same beside BullMQ.
//
// Usage: node bench/node/ws-schedules.mjs URL SECONDS [CONCURRENCY 64]   (after `npm ci` in bench/node)
import { WebSocket } from 'ws';
import { randomBytes } from 'node:crypto';

const [url, secondsArg, concurrencyArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg ?? 64);
if (!url || !(seconds > 0) || !(concurrency > 0)) {
  console.error('usage: node ws-schedules.mjs URL SECONDS [CONCURRENCY]');
  process.exit(2);
}
const prefix = `ws${randomBytes(6).toString('hex')}-`;
const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/ws`, { perMessageDeflate: false });
await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
const t0 = performance.now();
const end = t0 + seconds * 1000;
let ref = 0;
let ok = 0;
let errors = 0;
let inFlight = 0;
let firstError;
await new Promise((res) => {
  const send = () => {
    inFlight++;
    const r = ref++;
    ws.send(`{"op":"schedule","ref":"${r}","timer":{"id":"${prefix}${r}","topic":"bench","delayMs":3600000,"payload":{"n":${r}}}}`);
  };
  ws.on('message', (data) => {
    inFlight--;
    const m = JSON.parse(String(data));
    if (m.status === 201) {
      ok++;
    } else {
      errors++;
      firstError ??= String(data).slice(0, 200);
    }
    if (performance.now() < end) send(); else if (inFlight === 0) res();
  });
  ws.on('close', (code) => { if (inFlight > 0) { console.error(`closed with ${code}, ${inFlight} in flight`); process.exit(1); } });
  for (let i = 0; i < concurrency; i++) send();
});
const secs = (performance.now() - t0) / 1000;
ws.close();
if (firstError) console.error(`first error: ${firstError}`);
console.log(`schedules ${ok} seconds ${secs.toFixed(3)} errors ${errors}`);
