// The deliveries view: GET /v1/deliveries?state=… (callback deliveries; dead ones by default: the dead-letter list),
// refreshed every few seconds while visible, with a Retry button on dead ones (POST /v1/deliveries/{id}/retry).
// The API lists oldest first; the view shows the newest page it can reach within a few pages, newest first.

import { api } from './api.js';
import { fmtInt, fmtDateTime } from './format.js';

const REFRESH_MS = 3000;
const LIMIT = 200;
const MAX_PAGES = 5;

export class DeliveriesView {
  constructor() {
    this.body = document.getElementById('deliveries-body');
    this.empty = document.getElementById('deliveries-empty');
    this.status = document.getElementById('deliveries-status');
    this.meta = document.getElementById('deliveries-meta');
    this.state = document.getElementById('deliveries-state');
    this.loading = false;
    this.body.addEventListener('click', (e) => this.onAction(e));
    this.state.addEventListener('change', () => this.load());
    setInterval(() => { if (!document.hidden && !this.loading) this.load(); }, REFRESH_MS);
  }

  async load() {
    this.loading = true;
    try {
      let items = [];
      let cursor = null;
      let pages = 0;
      let more = false;
      do {
        const params = { limit: LIMIT };
        if (this.state.value) params.state = this.state.value;
        if (cursor) params.cursor = cursor;
        const page = await api('GET', 'v1/deliveries', { params });
        items = items.concat(page.deliveries || []);
        cursor = page.next;
        pages++;
        more = !!cursor;
      } while (cursor && pages < MAX_PAGES);
      items = items.slice(-LIMIT).reverse();
      this.render(items, more);
    } catch (e) {
      this.say('Deliveries: ' + e.message, 'bad');
    } finally {
      this.loading = false;
    }
  }

  // Rows whose delivery did not change keep their element (and a button the user is about to click); the body is
  // rebuilt only when a row was added, removed, moved or changed.
  render(items, more) {
    const old = new Map();
    for (const tr of this.body.children) old.set(tr.dataset.id, tr);
    const rows = items.map((d) => {
      const sig = JSON.stringify(d);
      const kept = old.get(d.id);
      if (kept && kept.dataset.sig === sig) return kept;
      const tr = this.row(d);
      tr.dataset.sig = sig;
      return tr;
    });
    const current = this.body.children;
    const same = rows.length === current.length && rows.every((tr, i) => current[i] === tr);
    if (!same) this.body.replaceChildren(...rows);
    this.empty.hidden = items.length > 0;
    this.meta.textContent = fmtInt(items.length) + (more ? '+' : '') + ' ' + (this.state.value || 'all')
        + ' · newest first';
  }

  row(d) {
    const tr = document.createElement('tr');
    tr.dataset.id = d.id;
    const last = d.attempts && d.attempts.length ? d.attempts[d.attempts.length - 1] : null;
    const cells = [
      d.id,
      d.timerId,
      d.url,
      d.state + (d.state === 'pending' && d.nextAttemptAt ? ' · next ' + fmtDateTime(d.nextAttemptAt) : ''),
      fmtInt(last ? last.n : 0),
      last ? (last.status ? 'HTTP ' + last.status : last.error || '?') + ' · ' + fmtDateTime(last.at)
          + ' · ' + fmtInt(last.durationMs) + ' ms' : '—',
    ];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 2) { td.className = 'url'; td.title = d.url; }
      if (i === 4) td.className = 'num';
      tr.append(td);
    });
    const act = document.createElement('td');
    act.className = 'actions';
    if (d.state === 'dead') {
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'btn small';
      btn.dataset.action = 'retry';
      btn.textContent = 'Retry';
      btn.setAttribute('aria-label', 'Retry delivery ' + d.id);
      act.append(btn);
    }
    tr.append(act);
    tr.classList.toggle('paused', d.state === 'dead');
    return tr;
  }

  async onAction(e) {
    const btn = e.target.closest('button[data-action="retry"]');
    if (!btn) return;
    const id = btn.closest('tr').dataset.id;
    btn.disabled = true;
    try {
      await api('POST', 'v1/deliveries/' + encodeURIComponent(id) + '/retry');
      this.say('Re-queued ' + id + ': its next attempt is now, with the same webhook-id.', 'ok');
      this.load();
    } catch (err) {
      this.say('Retry of ' + id + ' failed: ' + err.message, 'bad');
      btn.disabled = false;
    }
  }

  say(text, cls) {
    this.status.textContent = text;
    this.status.className = 'status-line' + (cls ? ' ' + cls : '');
  }
}
