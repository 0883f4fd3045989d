// Live counters and their sparklines, fed by the wheel stream. Charts are Chart.js (vendored from its
// WebJar, global `Chart`), with animation off and in-place data updates; without Chart.js the numbers
// still update. Each series keeps a fixed window of samples (bounded memory).

import { fmtInt, fmtRate, fmtLatency, fmtClockSec, fmtCompact } from './format.js';

const WINDOW = 240;          // samples kept: ~60 s at 4 per second
const P50 = '#3fd0c9';
const P99 = '#f4a261';

function pick(...values) {
  for (const v of values) if (Number.isFinite(v)) return v;
  return NaN;
}

function makeChart(canvas, series, { area = false, unit = '' } = {}) {
  const Chart = window.Chart;
  if (!Chart) return null;
  const labels = [];
  const datasets = series.map((s) => ({
    label: s.label,
    data: [],
    borderColor: s.color,
    backgroundColor: area ? s.color + '22' : s.color,
    fill: area ? 'origin' : false,
    borderWidth: 1.6,
    pointRadius: 0,
    pointHoverRadius: 3,
    tension: 0.25,
    spanGaps: true,
  }));
  return new Chart(canvas, {
    type: 'line',
    data: { labels, datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      normalized: true,
      interaction: { mode: 'index', intersect: false },
      layout: { padding: { top: 4, right: 2, bottom: 0, left: 0 } },
      plugins: {
        legend: { display: false },
        tooltip: {
          backgroundColor: 'rgba(14,20,27,0.95)', borderColor: '#2a3746', borderWidth: 1,
          titleColor: '#8593a3', bodyColor: '#d9e2ec', padding: 8, boxWidth: 8, boxHeight: 8,
          callbacks: {
            title: (items) => items.length ? fmtClockSec(+items[0].label) : '',
            label: (item) => ' ' + item.dataset.label + ': ' + (unit === 'ms' ? fmtLatency(item.parsed.y) + ' ms'
                : unit === '/s' ? fmtRate(item.parsed.y) + ' /s' : fmtInt(item.parsed.y)),
          },
        },
      },
      scales: {
        x: { display: false },
        y: {
          beginAtZero: true,
          grace: '8%',
          border: { display: false },
          grid: { color: 'rgba(255,255,255,0.045)', drawTicks: false },
          ticks: { color: '#5b6878', maxTicksLimit: 3, padding: 6, font: { size: 10 },
            callback: (v) => (v >= 1000 ? fmtCompact(v) : String(+v.toFixed(2))) },
        },
      },
    },
  });
}

/** The KPI tiles of the "Live" card. */
export class Kpis {
  constructor() {
    const Chart = window.Chart;
    if (Chart) {
      Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
      Chart.defaults.color = '#8593a3';
    }
    const canvas = (k) => document.querySelector('[data-kpi="' + k + '"] canvas');
    this.charts = {
      pending: makeChart(canvas('pending'), [{ label: 'pending', color: P50 }], { area: true }),
      rate: makeChart(canvas('rate'), [{ label: 'firings', color: '#8fb8ff' }], { area: true, unit: '/s' }),
      lateness: makeChart(canvas('lateness'), [{ label: 'p50', color: P50 }, { label: 'p99', color: P99 }], { unit: 'ms' }),
      store: makeChart(canvas('store'), [{ label: 'p50', color: P50 }, { label: 'p99', color: P99 }], { unit: 'ms' }),
    };
    this.el = (id) => document.getElementById(id);
    this.els = {
      pending: this.el('kpi-pending'), pendingSub: this.el('kpi-pending-sub'),
      rate: this.el('kpi-rate'), rateSub: this.el('kpi-rate-sub'),
      lateness: this.el('kpi-lateness'), latenessSub: this.el('kpi-lateness-sub'),
      store: this.el('kpi-store'), storeSub: this.el('kpi-store-sub'),
      subscribers: this.el('fact-subscribers'), fired: this.el('fact-fired'), levels: this.el('fact-levels'),
    };
    this.lastFired = NaN;
    this.lastNow = NaN;
    this.peakRate = 0;
    this.dirty = false;
    // Repaint the charts at most 4 times a second, and not while the tab is hidden.
    setInterval(() => this.flush(), 250);
  }

  /** Takes a wheel snapshot (with its optional `stats` and `lateness`). */
  push(snap) {
    const st = snap.stats || {};
    const lat = snap.lateness || {};
    const now = Number.isFinite(snap.now) ? snap.now : Date.now();

    let rate = pick(st.firingsPerSec);
    if (!Number.isFinite(rate) && Number.isFinite(this.lastFired) && now > this.lastNow) {
      rate = Math.max(0, (snap.firedTotal - this.lastFired) * 1000 / (now - this.lastNow));
    }
    this.lastFired = snap.firedTotal; this.lastNow = now;
    const p50 = pick(st.latenessP50Ms, lat.p50Ms, lat.p50);
    const p99 = pick(st.latenessP99Ms, lat.p99Ms, lat.p99);
    const s50 = pick(st.storeLatencyP50Ms);
    const s99 = pick(st.storeLatencyP99Ms);
    const maxLate = pick(lat.maxMs, lat.max);

    const e = this.els;
    e.pending.textContent = fmtInt(snap.pending);
    e.rate.textContent = fmtRate(rate);
    if (Number.isFinite(rate) && rate > this.peakRate) this.peakRate = rate;
    e.rateSub.textContent = 'peak ' + fmtRate(this.peakRate) + ' /s this session';
    e.lateness.innerHTML = fmtLatency(p50) + ' <small>/</small> ' + fmtLatency(p99) + ' <small>ms</small>';
    e.latenessSub.textContent = Number.isFinite(maxLate) ? 'max ' + fmtLatency(maxLate) + ' ms' : 'fired after due, p50 / p99';
    e.store.innerHTML = fmtLatency(s50) + ' <small>/</small> ' + fmtLatency(s99) + ' <small>ms</small>';
    e.storeSub.textContent = 'per durable write, p50 / p99';
    e.subscribers.textContent = fmtInt(pick(st.subscribers));
    e.fired.textContent = fmtInt(snap.firedTotal);
    e.levels.textContent = Array.isArray(snap.levels) ? String(snap.levels.length) : '—';
    this.append('pending', now, [snap.pending]);
    this.append('rate', now, [rate]);
    this.append('lateness', now, [p50, p99]);
    this.append('store', now, [s50, s99]);
    const pc = this.charts.pending;
    if (pc && pc.data.labels.length > 1 && Number.isFinite(snap.pending)) {
      const d = snap.pending - pc.data.datasets[0].data[0];
      const secs = Math.round((now - pc.data.labels[0]) / 1000);
      const far = snap.far && Number.isFinite(snap.far.count) && Number.isFinite(snap.far.fromMs)
          ? ' · ' + fmtInt(snap.far.count) + ' far' : '';
      e.pendingSub.textContent = (d >= 0 ? '+' : '−') + fmtInt(Math.abs(d)) + ' over ' + secs + ' s' + far;
    }
    this.dirty = true;
  }

  append(key, label, values) {
    const c = this.charts[key];
    if (!c) return;
    const d = c.data;
    d.labels.push(label);
    for (let i = 0; i < d.datasets.length; i++) d.datasets[i].data.push(Number.isFinite(values[i]) ? values[i] : null);
    if (d.labels.length > WINDOW) {
      d.labels.shift();
      for (const ds of d.datasets) ds.data.shift();
    }
  }

  flush() {
    if (!this.dirty || document.hidden) return;
    this.dirty = false;
    for (const c of Object.values(this.charts)) if (c) c.update('none');
  }
}
