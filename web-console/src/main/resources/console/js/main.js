// Wiring: one push stream (/v1/wheel/stream) feeds the wheel, the counters and the clock; the firing feed has
// its own stream; the timers table, the topics view and the form use the plain API.

import { initAuth } from './auth.js';
import { initRole } from './role.js';
import { observeServerTime, serverNow } from './clock.js';
import { openWheelStream } from './stream.js';
import { WheelView } from './wheel.js';
import { Kpis } from './charts.js';
import { Feed } from './feed.js';
import { TimersTable } from './timers.js';
import { TopicsView } from './topics.js';
import { DeliveriesView } from './deliveries.js';
import { NodesView } from './nodes.js';
import { CreateForm } from './form.js';
import { fmtClockSec, fmtSpan } from './format.js';

initAuth();
initRole();

const $ = (id) => document.getElementById(id);
const wheel = new WheelView($('wheel'), $('wheel-tip'), $('levels'), $('wheel-meta'));
const kpis = new Kpis();
const timers = new TimersTable();
let tickMs = 0;
let snapshots = 0;

const STATES = {
  connecting: 'connecting…',
  live: 'live',
  polling: 'live (polling)',
  down: 'server unreachable',
  auth: 'token required',
};
let lastState = '';
function setState(state, detail) {
  const conn = $('conn');
  if (state === lastState && !detail) return;
  lastState = state;
  conn.dataset.state = state;
  $('conn-text').textContent = detail && state !== 'live' ? detail : STATES[state] || state;
  $('fact-stream').textContent = state === 'live' ? 'push' : state === 'polling' ? 'poll 2/s' : '—';
}

openWheelStream({
  onState: setState,
  onSnapshot(snap) {
    snapshots++;
    observeServerTime(snap.now);
    if (snap.tickMs && snap.tickMs !== tickMs) {
      tickMs = snap.tickMs;
      $('fact-tick').textContent = fmtSpan(tickMs);
    }
    wheel.update(snap);
    kpis.push(snap);
    document.documentElement.dataset.snapshots = String(snapshots);
  },
});

new Feed({
  tickMs: () => tickMs,
  onFiring(f) {
    if (timers.shows(f.id)) timers.reloadSoon();
  },
});

new CreateForm({
  onCreated(t) {
    timers.flash(t.id);
    timers.load({ quiet: true });
  },
});

timers.load();

const topics = new TopicsView({ onChanged: () => timers.load({ quiet: true }) });
topics.load();

const deliveries = new DeliveriesView();
deliveries.load();
new NodesView().load();

const clock = $('server-clock');
setInterval(() => {
  const text = fmtClockSec(serverNow());
  if (clock.textContent !== text) clock.textContent = text;
}, 250);
