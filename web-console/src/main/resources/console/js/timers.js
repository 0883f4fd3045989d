// The timers table: GET /v1/timers pages (ordered by next due), filtered by topic on the server and by id
// prefix here (the API has no id-prefix search: matching pages are scanned, a bounded number per view), with
// live countdowns, a "paused" badge, and touch, pause/resume, fire-now and cancel. Rows are reconciled by id, so a refresh never steals keyboard focus.

import { api, ApiError } from './api.js';
import { serverNow } from './clock.js';
import { fmtCountdown, fmtDateTime, fmtDuration, fmtInt } from './format.js';

const MAX_SCAN_PAGES = 20;     // an id-prefix search reads at most this many API pages per view
const AUTO_REFRESH_MS = 3000;
const OVERDUE_RELOAD_MS = 400;
const OVERDUE_GRACE_MS = 2000;
const CONFIRM_MS = 8000;          // how long "Confirm" waits for the second press

export class TimersTable {
  constructor() {
    this.body = document.getElementById('timers-body');
    this.empty = document.getElementById('timers-empty');
    this.status = document.getElementById('timers-status');
    this.meta = document.getElementById('timers-meta');
    this.qId = document.getElementById('q-id');
    this.qTopic = document.getElementById('q-topic');
    this.qLimit = document.getElementById('q-limit');
    this.qAuto = document.getElementById('q-auto');
    this.pageLabel = document.getElementById('page-label');
    this.btnFirst = document.getElementById('page-first');
    this.btnPrev = document.getElementById('page-prev');
    this.btnNext = document.getElementById('page-next');
    this.rows = new Map();          // id -> { tr, timer, cells }
    this.cursors = [null];          // cursor of each page visited; the last one is the current page's
    this.next = null;
    this.loading = null;            // AbortController of the load in flight
    this.reloadTimer = 0;
    this.highlight = null;          // id to flash after the next render
    this.lastLoad = 0;              // performance.now() of the last completed load

    document.getElementById('timers-filter').addEventListener('submit', (e) => { e.preventDefault(); this.first(); });
    let debounce = 0;
    const typed = () => { clearTimeout(debounce); debounce = setTimeout(() => this.first(), 300); };
    this.qId.addEventListener('input', typed);
    this.qTopic.addEventListener('input', typed);
    this.qLimit.addEventListener('change', () => this.first());
    this.btnFirst.addEventListener('click', () => this.first());
    this.btnPrev.addEventListener('click', () => {
      if (this.cursors.length > 1) { this.cursors.pop(); this.load(); }
    });
    this.btnNext.addEventListener('click', () => {
      if (this.next) { this.cursors.push(this.next); this.load(); }
    });
    this.body.addEventListener('click', (e) => this.onAction(e));
    setInterval(() => this.tickCountdowns(), 200);
    setInterval(() => {
      if (this.qAuto.checked && !document.hidden && !this.loading) this.load({ quiet: true });
    }, AUTO_REFRESH_MS);
  }

  /** Back to the first page with the current filters. */
  first() {
    this.cursors = [null];
    this.load();
  }

  /** Reloads the current page soon (coalesces bursts, e.g. many firings of visible timers). */
  reloadSoon(delay = 300) {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(() => { this.reloadTimer = 0; this.load({ quiet: true }); }, delay);
  }

  /** Whether a timer with this id is on screen. */
  shows(id) {
    return this.rows.has(id);
  }

  /** Marks a timer to flash when it appears (after a create). */
  flash(id) {
    this.highlight = id;
  }

  async load({ quiet = false } = {}) {
    if (this.loading) this.loading.abort();
    const ctl = new AbortController();
    this.loading = ctl;
    const prefix = this.qId.value.trim();
    const topic = this.qTopic.value.trim();
    const limit = +this.qLimit.value || 50;
    const timers = [];
    let cursor = this.cursors[this.cursors.length - 1];
    let scanned = 0, pages = 0;
    try {
      do {
        // Asking for no more than still fits keeps the API's cursor exact: nothing is skipped between pages.
        const page = await api('GET', 'v1/timers', {
          params: { topic, limit: limit - timers.length, cursor }, signal: ctl.signal,
        });
        const list = page && Array.isArray(page.timers) ? page.timers : [];
        for (const t of list) {
          scanned++;
          if (!prefix || String(t.id).startsWith(prefix)) timers.push(t);
        }
        cursor = page ? page.next : null;
        pages++;
      } while (prefix && cursor && timers.length < limit && pages < MAX_SCAN_PAGES);
    } catch (e) {
      if (e.name === 'AbortError') return;
      if (this.loading === ctl) this.loading = null;
      this.say(e instanceof ApiError && e.field ? e.field + ': ' + e.message : e.message, 'bad');
      return;
    }
    if (this.loading !== ctl) return;
    this.loading = null;
    this.lastLoad = performance.now();
    this.next = cursor || null;
    this.render(timers);
    const page = this.cursors.length;
    this.pageLabel.textContent = 'page ' + page;
    this.btnFirst.disabled = page === 1;
    this.btnPrev.disabled = page === 1;
    this.btnNext.disabled = !this.next;
    this.meta.textContent = 'ordered by next due · ' + fmtInt(timers.length) + ' shown'
        + (prefix ? ' · ' + fmtInt(scanned) + ' scanned for "' + prefix + '"' : '')
        + (topic ? ' · topic ' + topic : '');
    if (!quiet) this.say('');
  }

  render(timers) {
    const seen = new Set();
    let before = this.body.firstElementChild;
    for (const t of timers) {
      const id = String(t.id);
      seen.add(id);
      let row = this.rows.get(id);
      if (!row) {
        row = this.makeRow(id);
        this.rows.set(id, row);
      }
      this.fill(row, t);
      if (row.tr !== before) this.body.insertBefore(row.tr, before);
      else before = before.nextElementSibling;
      if (this.highlight === id) {
        row.tr.classList.remove('flash');
        void row.tr.offsetWidth;       // restart the animation
        row.tr.classList.add('flash');
        this.highlight = null;
      }
    }
    for (const [id, row] of this.rows) {
      if (!seen.has(id)) { row.tr.remove(); this.rows.delete(id); }
    }
    this.empty.hidden = timers.length > 0;
    this.tickCountdowns();
  }

  makeRow(id) {
    const tr = document.createElement('tr');
    tr.dataset.id = id;
    const cId = document.createElement('td'); cId.className = 'id'; cId.textContent = id; cId.title = id;
    const cTopic = document.createElement('td');
    const chip = document.createElement('span'); chip.className = 'chip'; cTopic.append(chip);
    const cKind = document.createElement('td'); cKind.className = 'kind';
    const cDue = document.createElement('td'); cDue.className = 'num';
    const due = document.createElement('span'); due.className = 'due';
    const abs = document.createElement('span'); abs.className = 'abs';
    cDue.append(due, abs);
    const cFirings = document.createElement('td'); cFirings.className = 'num';
    const cAct = document.createElement('td');
    const wrap = document.createElement('div'); wrap.className = 'actions-wrap';
    const touch = document.createElement('button');
    touch.type = 'button'; touch.className = 'btn small'; touch.dataset.action = 'touch'; touch.textContent = 'Touch';
    touch.setAttribute('aria-label', 'Touch ' + id + ' (restart its countdown)');
    const pause = document.createElement('button');
    pause.type = 'button'; pause.className = 'btn small'; pause.dataset.action = 'pause'; pause.textContent = 'Pause';
    pause.setAttribute('aria-label', 'Pause ' + id);
    const fire = document.createElement('button');
    fire.type = 'button'; fire.className = 'btn small'; fire.dataset.action = 'fire'; fire.textContent = 'Fire';
    fire.setAttribute('aria-label', 'Fire ' + id + ' once now');
    const cancel = document.createElement('button');
    cancel.type = 'button'; cancel.className = 'btn small danger'; cancel.dataset.action = 'cancel'; cancel.textContent = 'Cancel';
    cancel.setAttribute('aria-label', 'Cancel ' + id);
    wrap.append(touch, pause, fire, cancel);
    cAct.append(wrap);
    cAct.className = 'actions';
    const badge = document.createElement('span');
    badge.className = 'badge paused'; badge.textContent = 'paused'; badge.hidden = true;
    cId.append(' ', badge);
    tr.append(cId, cTopic, cKind, cDue, cFirings, cAct);
    return { tr, chip, kind: cKind, due, abs, firings: cFirings, cancel, pause, badge, timer: null, confirmTimer: 0 };
  }

  fill(row, t) {
    row.timer = t;
    row.chip.textContent = t.topic;
    const paused = t.paused === true;
    row.badge.hidden = !paused;
    row.tr.classList.toggle('paused', paused);
    row.pause.dataset.action = paused ? 'resume' : 'pause';
    row.pause.textContent = paused ? 'Resume' : 'Pause';
    row.pause.setAttribute('aria-label', (paused ? 'Resume ' : 'Pause ') + t.id);
    row.kind.textContent = '';
    const b = document.createElement('b'); b.textContent = t.kind;
    row.kind.append(b);
    if (t.cron) row.kind.append(' ' + t.cron + (t.timeZone && t.timeZone !== 'UTC' ? ' ' + t.timeZone : ''));
    else if (t.periodMs) row.kind.append(' every ' + fmtDuration(t.periodMs));
    else if (Number.isFinite(t.delayMs)) row.kind.append(' after ' + fmtDuration(t.delayMs));
    if (t.misfire && (t.kind === 'fixed-rate' || t.kind === 'cron') && t.misfire !== 'fire-once') row.kind.append(' · ' + t.misfire);
    row.abs.textContent = fmtDateTime(t.nextDueAt, serverNow());
    row.abs.title = new Date(t.nextDueAt).toISOString();
    row.firings.textContent = fmtInt(t.firings) + (t.maxFirings ? ' / ' + fmtInt(t.maxFirings) : '');
  }

  tickCountdowns() {
    const now = serverNow();
    let stale = false;
    for (const row of this.rows.values()) {
      if (row.timer.paused === true) {
        // a paused timer does not count down: its due time is kept for when it resumes
        if (row.due.textContent !== 'paused') { row.due.textContent = 'paused'; row.due.className = 'due'; }
        continue;
      }
      const d = row.timer.nextDueAt - now;
      if (d < -OVERDUE_RELOAD_MS) stale = true;
      // Just past due most likely means "fired, the row is not refreshed yet": say "due now" for a grace
      // period, and "overdue" (amber) only beyond it, when the server may really be behind.
      const text = d > -OVERDUE_GRACE_MS ? fmtCountdown(Math.max(d, 0)) : fmtCountdown(d);
      if (row.due.textContent !== text) row.due.textContent = text;
      const cls = 'due' + (d <= -OVERDUE_GRACE_MS ? ' overdue' : d < 5000 ? ' soon' : '');
      if (row.due.className !== cls) row.due.className = cls;
    }
    // A row past due has most likely fired (the server fires within a tick): refresh, at most once a second,
    // so the table does not show fired timers as "overdue" until the next auto-refresh. A server that really is
    // behind keeps showing them, now with fresh data.
    if (stale && this.qAuto.checked && !this.loading && performance.now() - this.lastLoad > 1000) this.reloadSoon(0);
  }

  async onAction(e) {
    const btn = e.target.closest('button[data-action]');
    if (!btn) return;
    const tr = btn.closest('tr');
    const id = tr.dataset.id;
    const row = this.rows.get(id);
    if (!row) return;
    if (btn.dataset.action === 'touch') {
      btn.disabled = true;
      try {
        const t = await api('POST', 'v1/timers/' + encodeURIComponent(id) + '/touch');
        this.fill(row, t);
        this.tickCountdowns();
        this.say('Touched ' + id + ': next due ' + fmtCountdown(t.nextDueAt - serverNow()) + '.', 'ok');
        tr.classList.remove('flash'); void tr.offsetWidth; tr.classList.add('flash');
        this.reloadSoon(600);
      } catch (err) {
        this.say('Touch ' + id + ' failed: ' + err.message, 'bad');
        if (err.status === 404) this.reloadSoon(0);
      } finally {
        btn.disabled = false;
      }
      return;
    }
    const op = btn.dataset.action;
    if (op === 'pause' || op === 'resume' || op === 'fire') {
      btn.disabled = true;
      try {
        const t = await api('POST', 'v1/timers/' + encodeURIComponent(id) + '/' + op);
        if (op === 'fire' && t.kind === 'once') {
          this.say('Fired ' + id + ' now; a once timer is then done.', 'ok');
        } else {
          this.fill(row, t);
          this.tickCountdowns();
          this.say((op === 'pause' ? 'Paused ' : op === 'resume' ? 'Resumed ' : 'Fired ') + id
              + (op === 'fire' ? ' now (firing ' + fmtInt(t.firings) + ').' : '.'), 'ok');
        }
        tr.classList.remove('flash'); void tr.offsetWidth; tr.classList.add('flash');
        this.reloadSoon(600);
      } catch (err) {
        this.say(op[0].toUpperCase() + op.slice(1) + ' ' + id + ' failed: ' + err.message, 'bad');
        if (err.status === 404) this.reloadSoon(0);
      } finally {
        btn.disabled = false;
      }
      return;
    }
    // cancel: a second press within CONFIRM_MS confirms
    if (!btn.classList.contains('confirm')) {
      btn.classList.add('confirm');
      btn.textContent = 'Confirm';
      btn.setAttribute('aria-label', 'Confirm cancelling ' + id);
      row.confirmTimer = setTimeout(() => this.unconfirm(row), CONFIRM_MS);
      return;
    }
    clearTimeout(row.confirmTimer);
    btn.disabled = true;
    try {
      await api('DELETE', 'v1/timers/' + encodeURIComponent(id));
      this.say('Cancelled ' + id + '.', 'ok');
    } catch (err) {
      if (err.status === 404) this.say(id + ' was already gone (fired or cancelled).', 'ok');
      else { this.say('Cancel ' + id + ' failed: ' + err.message, 'bad'); btn.disabled = false; this.unconfirm(row); return; }
    }
    // Keep keyboard focus in the table: move it to the next row's cancel button, or the previous one's.
    const neighbour = tr.nextElementSibling || tr.previousElementSibling;
    const hadFocus = tr.contains(document.activeElement);
    tr.remove();
    this.rows.delete(id);
    this.empty.hidden = this.rows.size > 0;
    if (hadFocus) {
      const target = neighbour ? neighbour.querySelector('button[data-action="cancel"]') : document.getElementById('timers-h');
      if (target) target.focus();
    }
    this.reloadSoon(400);
  }

  unconfirm(row) {
    row.cancel.classList.remove('confirm');
    row.cancel.textContent = 'Cancel';
    row.cancel.setAttribute('aria-label', 'Cancel ' + row.tr.dataset.id);
  }

  say(text, cls) {
    this.status.textContent = text;
    this.status.className = 'status-line' + (cls ? ' ' + cls : '');
  }
}
