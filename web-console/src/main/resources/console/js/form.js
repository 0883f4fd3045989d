// The "Schedule a timer" form: builds the JSON body from the fields (only those filled in), POSTs it, and
// shows the server's validation error next to the field it names ({"error":{"field"}}). The server is the
// one judge of the rules; the form only refuses what it cannot send (a payload that is not JSON, a number
// field holding something that is not a number).

import { api, ApiError } from './api.js';
import { serverNow } from './clock.js';
import { fmtCountdown } from './format.js';

const FIELDS = ['id', 'topic', 'kind', 'delayMs', 'at', 'periodMs', 'cron', 'timeZone', 'dstGap', 'dstOverlap', 'endAt',
  'jitterMs', 'maxFirings', 'misfire', 'payload'];
const CRON_FIELDS = ['cron', 'timeZone', 'dstGap', 'dstOverlap'];

export class CreateForm {
  /** onCreated(timer) is called after a 201. */
  constructor({ onCreated }) {
    this.onCreated = onCreated;
    this.form = document.getElementById('create-form');
    this.f = Object.fromEntries(FIELDS.map((k) => [k, document.getElementById('f-' + k)]));
    this.status = document.getElementById('create-status');
    this.formErr = document.getElementById('e-form');
    this.submit = document.getElementById('create-submit');
    this.delayBox = this.form.querySelector('.start-delay');
    this.atBox = this.form.querySelector('.start-at');

    this.f.kind.addEventListener('change', () => this.syncKind());
    for (const r of this.form.querySelectorAll('input[name="start"]')) r.addEventListener('change', () => this.syncStart());
    for (const k of FIELDS) this.f[k].addEventListener('input', () => this.clearError(k));
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.send(); });
    this.syncKind();
    this.syncStart();
  }

  startMode() {
    return this.form.querySelector('input[name="start"]:checked').value;
  }

  syncKind() {
    const kind = this.f.kind.value;
    const periodic = kind !== 'once';
    const hasPeriod = kind === 'fixed-rate' || kind === 'fixed-delay';
    this.f.periodMs.disabled = !hasPeriod;
    this.f.misfire.disabled = kind !== 'fixed-rate' && kind !== 'cron';
    this.f.endAt.disabled = !periodic;
    for (const k of CRON_FIELDS) this.f[k].disabled = kind !== 'cron';
    this.f.periodMs.placeholder = hasPeriod ? 'required, e.g. 1000' : 'fixed-rate / fixed-delay only';
    this.f.cron.placeholder = kind === 'cron' ? 'required, e.g. 0 9 * * MON-FRI' : 'cron kind only';
    if (!hasPeriod) this.clearError('periodMs');
    if (this.f.misfire.disabled) this.clearError('misfire');
    if (!periodic) this.clearError('endAt');
    if (kind !== 'cron') for (const k of CRON_FIELDS) this.clearError(k);
  }

  syncStart() {
    const at = this.startMode() === 'at';
    this.atBox.hidden = !at;
    this.delayBox.hidden = at;
    if (at && !this.f.at.value) {
      // a sensible default: one minute from now, local time, to the second
      const d = new Date(serverNow() + 60_000);
      d.setMilliseconds(0);
      const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
      this.f.at.value = local;
    }
    this.clearError(at ? 'delayMs' : 'at');
  }

  /** The request body, or null after showing why it cannot be built. */
  body() {
    const b = {};
    const text = (k) => this.f[k].value.trim();
    const integer = (k) => {
      const el = this.f[k];
      if (el.validity && el.validity.badInput) { this.showError(k, k + ' must be a number'); return undefined; }
      const v = el.value.trim();
      if (v === '') return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : v;       // let the server name a value it cannot accept
    };
    let ok = true;
    if (text('id')) b.id = text('id');
    if (text('topic')) b.topic = text('topic');
    b.kind = this.f.kind.value;
    if (this.startMode() === 'delay') {
      const d = integer('delayMs');
      if (d === undefined) ok = false; else if (d !== null) b.delayMs = d;
    } else {
      const v = this.f.at.value;
      if (v) {
        const ms = new Date(v).getTime();
        if (Number.isFinite(ms)) b.at = ms; else { this.showError('at', 'at is not a valid date and time'); ok = false; }
      } else if (b.kind === 'once') {
        this.showError('at', 'choose a date and time');
        ok = false;
      }
    }
    if (b.kind === 'fixed-rate' || b.kind === 'fixed-delay') {
      const p = integer('periodMs');
      if (p === undefined) ok = false; else if (p !== null) b.periodMs = p;
    }
    if ((b.kind === 'fixed-rate' || b.kind === 'cron') && this.f.misfire.value) b.misfire = this.f.misfire.value;
    if (b.kind === 'cron') {
      // the expression is required: sent even when empty, so that the server names the field
      b.cron = text('cron');
      if (text('timeZone')) b.timeZone = text('timeZone');
      if (this.f.dstGap.value) b.dstGap = this.f.dstGap.value;
      if (this.f.dstOverlap.value) b.dstOverlap = this.f.dstOverlap.value;
    }
    if (b.kind !== 'once' && this.f.endAt.value) {
      const ms = new Date(this.f.endAt.value).getTime();
      if (Number.isFinite(ms)) b.endAt = ms; else { this.showError('endAt', 'endAt is not a valid date and time'); ok = false; }
    }
    const j = integer('jitterMs');
    if (j === undefined) ok = false; else if (j !== null) b.jitterMs = j;
    const m = integer('maxFirings');
    if (m === undefined) ok = false; else if (m !== null) b.maxFirings = m;
    const p = this.f.payload.value.trim();
    if (p) {
      try { b.payload = JSON.parse(p); } catch (e) {
        this.showError('payload', 'payload is not valid JSON: ' + e.message);
        ok = false;
      }
    }
    return ok ? b : null;
  }

  async send() {
    this.clearAll();
    const b = this.body();
    if (!b) { this.focusFirstError(); return; }
    this.submit.disabled = true;
    this.say('Scheduling…');
    try {
      const t = await api('POST', 'v1/timers', { body: b });
      this.say('Scheduled ' + t.id + ' · first firing ' + fmtCountdown(t.nextDueAt - serverNow()) + '.', 'ok');
      this.f.id.value = '';
      if (this.onCreated) this.onCreated(t);
    } catch (e) {
      this.say('');
      if (e instanceof ApiError && e.field) {
        const k = String(e.field).split('.')[0];
        if (this.f[k]) {
          if (k === 'at' && this.startMode() !== 'at') this.checkStart('at');
          if (k === 'delayMs' && this.startMode() !== 'delay') this.checkStart('delay');
          this.showError(k, e.message);
          this.focusFirstError();
          return;
        }
      }
      this.formErr.textContent = e.message + (e.code && e.status ? ' (' + e.status + ' ' + e.code + ')' : '');
    } finally {
      this.submit.disabled = false;
    }
  }

  checkStart(mode) {
    const r = this.form.querySelector('input[name="start"][value="' + mode + '"]');
    r.checked = true;
    this.syncStart();
  }

  showError(k, msg) {
    const el = this.f[k];
    const err = document.getElementById('e-' + k);
    el.setAttribute('aria-invalid', 'true');
    err.textContent = msg;
  }

  clearError(k) {
    this.f[k].removeAttribute('aria-invalid');
    document.getElementById('e-' + k).textContent = '';
    this.formErr.textContent = '';
  }

  clearAll() {
    for (const k of FIELDS) this.clearError(k);
  }

  focusFirstError() {
    const bad = FIELDS.map((k) => this.f[k]).find((el) => el.getAttribute('aria-invalid') === 'true');
    if (bad) bad.focus();
  }

  say(text, cls) {
    this.status.textContent = text;
    this.status.className = 'status-line' + (cls ? ' ' + cls : '');
  }
}
