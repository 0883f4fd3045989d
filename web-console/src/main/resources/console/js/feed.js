// The live feed of firings: Server-Sent Events from /v1/events (event "fired"), optionally filtered by
// topic. Rendering is batched once per animation frame and the list is bounded, so a burst of thousands
// of firings per second costs one small DOM update per frame, not one per firing. Paused, the feed keeps
// the newest firings in a bounded buffer and shows them on resume.

import { streamUrl, api, ApiError } from './api.js';
import { onTokenChange } from './auth.js';
import { fmtClock, fmtInt, fmtRate, previewJson } from './format.js';

const MAX_ROWS = 200;

export class Feed {
  /** tickMs() gives the wheel's tick (to judge lateness); onFiring(f) is told of every firing. */
  constructor({ tickMs, onFiring }) {
    this.tickMs = tickMs;
    this.onFiring = onFiring;
    this.list = document.getElementById('feed');
    this.countEl = document.getElementById('feed-count');
    this.rateEl = document.getElementById('feed-rate');
    this.statusEl = document.getElementById('feed-status');
    this.pauseBtn = document.getElementById('feed-pause');
    this.topicInput = document.getElementById('feed-topic');
    this.es = null;
    this.topics = '';
    this.paused = false;
    this.queue = [];          // received, not yet rendered (bounded)
    this.held = 0;            // received while paused
    this.received = 0;
    this.lastSeq = 0;
    this.lastCursor = null;   // the cursor of the last firing: resumes on any node of a cluster
    this.rateWindow = [];     // [perfTime, received] pairs, a few seconds' worth
    this.retry = 0;
    this.backoff = 1000;
    this.scheduled = false;
    this.flush = this.flush.bind(this);

    document.getElementById('feed-filter').addEventListener('submit', (e) => {
      e.preventDefault();
      const t = this.topicInput.value.split(',').map((s) => s.trim()).filter(Boolean).join(',');
      if (t === this.topics) return;
      this.topics = t;
      this.lastSeq = 0;       // a new filter starts live
      this.lastCursor = null;
      this.connect();
    });
    this.pauseBtn.addEventListener('click', () => this.setPaused(!this.paused));
    document.getElementById('feed-clear').addEventListener('click', () => {
      this.list.textContent = '';
      this.queue.length = 0;
      this.held = 0;
      this.setStatus('');
    });
    onTokenChange(() => { this.backoff = 1000; this.connect(); });
    setInterval(() => this.updateCount(), 1000);
    this.connect();
  }

  connect() {
    if (this.es) { this.es.close(); this.es = null; }
    clearTimeout(this.retry);
    const params = {};
    if (this.topics) params.topic = this.topics;
    if (this.lastCursor) params.from = this.lastCursor;
    else if (this.lastSeq > 0) params.from = this.lastSeq;
    const es = new EventSource(streamUrl('v1/events', params));
    this.es = es;
    const onMsg = (e) => this.receive(e);
    es.addEventListener('fired', onMsg);
    es.addEventListener('message', onMsg);      // tolerate firings sent without an event name
    es.addEventListener('open', () => {
      this.backoff = 1000;
      this.setStatus(this.paused ? this.pausedText() : (this.topics ? 'Live · topics ' + this.topics : 'Live · all topics'));
    });
    es.addEventListener('error', async () => {
      if (this.es !== es) return;
      if (es.readyState !== EventSource.CLOSED) { this.setStatus('Reconnecting…', 'bad'); return; }
      es.close(); this.es = null;
      try {
        await api('GET', 'v1/wheel');           // reachable and authorized: the stream itself failed
        this.setStatus('The firing stream was refused; retrying…', 'bad');
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) { this.setStatus('Needs an access token.', 'bad'); return; }
        this.setStatus('Server unreachable; retrying…', 'bad');
      }
      this.retry = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 15000);
    });
  }

  receive(e) {
    let f;
    try { f = JSON.parse(e.data); } catch { return; }
    if (!f || (f.type && f.type !== 'fired')) return;
    this.received++;
    if (typeof f.cursor === 'string') this.lastCursor = f.cursor;
    else if (Number.isFinite(f.seq) && f.seq > this.lastSeq) this.lastSeq = f.seq;
    if (this.onFiring) this.onFiring(f);
    this.queue.push(f);
    if (this.queue.length > MAX_ROWS) this.queue.splice(0, this.queue.length - MAX_ROWS);
    if (this.paused) {
      this.held++;
      return;
    }
    if (!this.scheduled) { this.scheduled = true; requestAnimationFrame(this.flush); }
  }

  flush() {
    this.scheduled = false;
    if (this.paused || this.queue.length === 0) return;
    const frag = document.createDocumentFragment();
    const tick = this.tickMs() || 10;
    for (let i = this.queue.length - 1; i >= 0; i--) frag.append(this.row(this.queue[i], tick));
    this.queue.length = 0;
    this.list.prepend(frag);
    while (this.list.childElementCount > MAX_ROWS) this.list.lastElementChild.remove();
  }

  row(f, tick) {
    const li = document.createElement('li');
    li.className = 'new';
    const time = document.createElement('span');
    time.className = 'f-time';
    time.textContent = fmtClock(f.firedAt);
    const id = document.createElement('span');
    id.className = 'f-id';
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.textContent = f.topic;
    id.append(chip, ' ', String(f.id));
    id.title = f.id;
    const late = document.createElement('span');
    const l = f.firedAt - f.dueAt;
    late.className = 'f-late' + (l > 100 ? ' bad' : l > 2 * tick ? ' warn' : '');
    late.textContent = Number.isFinite(l) ? '+' + fmtInt(l) + ' ms' : '';
    late.title = 'fired this long after it was due';
    const meta = document.createElement('span');
    meta.className = 'f-meta';
    meta.textContent = '#' + f.seq + ' · firing ' + f.firing;
    const payload = document.createElement('span');
    payload.className = 'f-payload';
    payload.textContent = previewJson(f.payload);
    li.append(time, id, late, meta, payload);
    return li;
  }

  setPaused(p) {
    this.paused = p;
    this.pauseBtn.setAttribute('aria-pressed', String(p));
    this.pauseBtn.textContent = p ? 'Resume' : 'Pause';
    if (p) {
      this.held = 0;
      this.setStatus(this.pausedText());
    } else {
      this.held = 0;
      this.setStatus(this.topics ? 'Live · topics ' + this.topics : 'Live · all topics');
      this.flush();
    }
  }

  pausedText() {
    return 'Paused' + (this.held ? ' · ' + fmtInt(this.held) + ' new (newest ' + Math.min(this.held, MAX_ROWS) + ' kept)' : '');
  }

  setStatus(text, cls) {
    this.statusEl.textContent = text;
    this.statusEl.className = 'status-line' + (cls ? ' ' + cls : '');
  }

  /** Once a second: the count (an aria-live region, so at most one announcement a second) and the rate. */
  updateCount() {
    const t = performance.now();
    this.rateWindow.push(t, this.received);
    while (this.rateWindow.length > 2 && t - this.rateWindow[0] > 5000) this.rateWindow.splice(0, 2);
    const dt = (t - this.rateWindow[0]) / 1000;
    const rate = dt > 0 ? (this.received - this.rateWindow[1]) / dt : 0;
    const text = fmtInt(this.received) + ' received';
    if (this.countEl.textContent !== text) this.countEl.textContent = text;
    const rateText = rate > 0 ? '· ' + fmtRate(rate) + ' /s' : '';
    if (this.rateEl.textContent !== rateText) this.rateEl.textContent = rateText;
    if (this.paused) this.setStatus(this.pausedText());
  }
}
