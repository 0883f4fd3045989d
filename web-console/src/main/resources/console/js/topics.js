// The topics view: GET /v1/topics (topics with pending counts and paused state, by name), refreshed every few
// seconds while visible, with pause / resume per topic. Rows are reconciled by name, so a refresh keeps focus.

import { api } from './api.js';
import { fmtInt } from './format.js';

const REFRESH_MS = 3000;
const LIMIT = 200;          // the view shows the first topics by name; the API pages beyond

export class TopicsView {
  constructor({ onChanged } = {}) {
    this.body = document.getElementById('topics-body');
    this.empty = document.getElementById('topics-empty');
    this.status = document.getElementById('topics-status');
    this.meta = document.getElementById('topics-meta');
    this.onChanged = onChanged || (() => {});
    this.rows = new Map();       // topic -> { tr, pending, badge, btn }
    this.loading = false;
    this.body.addEventListener('click', (e) => this.onAction(e));
    setInterval(() => { if (!document.hidden && !this.loading) this.load(); }, REFRESH_MS);
  }

  async load() {
    this.loading = true;
    try {
      const page = await api('GET', 'v1/topics', { params: { limit: LIMIT } });
      this.render(page && Array.isArray(page.topics) ? page.topics : [], page && page.next);
    } catch (e) {
      this.say('Topics: ' + e.message, 'bad');
    } finally {
      this.loading = false;
    }
  }

  render(topics, more) {
    const seen = new Set();
    let before = this.body.firstElementChild;
    for (const t of topics) {
      seen.add(t.topic);
      let row = this.rows.get(t.topic);
      if (!row) { row = this.makeRow(t.topic); this.rows.set(t.topic, row); }
      this.fill(row, t);
      if (row.tr !== before) this.body.insertBefore(row.tr, before);
      else before = before.nextElementSibling;
    }
    for (const [name, row] of this.rows) {
      if (!seen.has(name)) { row.tr.remove(); this.rows.delete(name); }
    }
    this.empty.hidden = topics.length > 0;
    const paused = topics.filter((t) => t.paused).length;
    this.meta.textContent = fmtInt(topics.length) + (more ? '+' : '') + ' topics · ' + fmtInt(paused) + ' paused';
  }

  makeRow(name) {
    const tr = document.createElement('tr');
    tr.dataset.topic = name;
    const cName = document.createElement('td');
    const chip = document.createElement('span'); chip.className = 'chip'; chip.textContent = name; chip.title = name;
    const badge = document.createElement('span'); badge.className = 'badge paused'; badge.textContent = 'paused'; badge.hidden = true;
    cName.append(chip, ' ', badge);
    const cPending = document.createElement('td'); cPending.className = 'num';
    const cAct = document.createElement('td'); cAct.className = 'actions';
    const btn = document.createElement('button'); btn.type = 'button'; btn.className = 'btn small';
    cAct.append(btn);
    tr.append(cName, cPending, cAct);
    return { tr, pending: cPending, badge, btn };
  }

  fill(row, t) {
    row.pending.textContent = fmtInt(t.pending);
    row.badge.hidden = !t.paused;
    row.tr.classList.toggle('paused', t.paused);
    row.btn.dataset.action = t.paused ? 'resume' : 'pause';
    row.btn.textContent = t.paused ? 'Resume' : 'Pause';
    row.btn.setAttribute('aria-label', (t.paused ? 'Resume topic ' : 'Pause topic ') + t.topic);
  }

  async onAction(e) {
    const btn = e.target.closest('button[data-action]');
    if (!btn) return;
    const name = btn.closest('tr').dataset.topic;
    const op = btn.dataset.action;
    btn.disabled = true;
    try {
      const t = await api('POST', 'v1/topics/' + encodeURIComponent(name) + '/' + op);
      const row = this.rows.get(name);
      if (row) this.fill(row, t);
      this.say((op === 'pause' ? 'Paused topic ' : 'Resumed topic ') + name
          + (op === 'pause' ? ': none of its timers fires until resumed.' : '.'), 'ok');
      this.onChanged();
    } catch (err) {
      this.say((op === 'pause' ? 'Pause' : 'Resume') + ' topic ' + name + ' failed: ' + err.message, 'bad');
    } finally {
      btn.disabled = false;
    }
  }

  say(text, cls) {
    this.status.textContent = text;
    this.status.className = 'status-line' + (cls ? ' ' + cls : '');
  }
}
