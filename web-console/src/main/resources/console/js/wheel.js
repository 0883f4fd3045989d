// The timing wheel, drawn on a canvas: one ring per level (level 0 outermost), one cell per slot whose
// colour and height show how many timers it holds (log scale), and each level's cursor sweeping round. With a
// window (the server keeps only the timers due soon in memory), a thin ring around them all is the far tier: the
// timers kept in the store until the window reaches them, shaded by their share of the pending ones.
//
// Cost model: the server sends aggregates only (slot counts), so the size of the wheel does not matter.
// Occupancy changes at most a few times a second: it is painted into a base canvas when a snapshot arrives.
// Each animation frame only clears the canvas on top and strokes the cursors (a few dozen arcs); nothing is
// allocated per frame (colours are precomputed strings, state lives in preallocated objects).
//
// Motion: between snapshots each cursor is extrapolated from the server's clock using the slot width
// (tickMs × slots^level) and the measured advance rate of the server's cursor (so a wheel that stalls
// stops turning); when a snapshot arrives the gap between what is shown and the new truth is eased out.

import { fmtInt, fmtCompact, fmtSpan, fmtDuration, fmtClock } from './format.js';
import { serverNow } from './clock.js';

const TAU = Math.PI * 2;
const TOP = -Math.PI / 2;
const MAX_LEVELS = 16;
const EASE_MS = 180;          // time constant for easing out a correction
const MAX_EXTRAPOLATE_MS = 1500;
const TRAIL_STEPS = 10;

// Occupancy ramp, from a barely-there cell to a hot one. Mirrors the .ramp-bar gradient in style.css.
const STOPS = [
  [0.00, 23, 49, 59], [0.22, 31, 111, 120], [0.45, 63, 208, 201],
  [0.70, 233, 196, 106], [0.86, 244, 162, 97], [1.00, 255, 122, 122],
];
const LUT = buildLut(256);
const TRAIL = [];
for (let k = 0; k < TRAIL_STEPS; k++) TRAIL.push('rgba(127,245,238,' + (0.30 * (1 - k / TRAIL_STEPS) ** 1.6).toFixed(3) + ')');
const EMPTY_CELL = '#131c26';
const TRACK = '#0c1218';
const HEAD = '#aefcf7';
const HEAD_GLOW = 'rgba(127,245,238,0.22)';
const HOVER = 'rgba(255,255,255,0.9)';
const FAR_EMPTY = '#101820';
const FAR_EDGE = '#2c3b4a';

function buildLut(n) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    let j = 1;
    while (j < STOPS.length - 1 && STOPS[j][0] < t) j++;
    const a = STOPS[j - 1], b = STOPS[j];
    const u = (t - a[0]) / (b[0] - a[0]);
    out[i] = 'rgb(' + Math.round(a[1] + (b[1] - a[1]) * u) + ',' + Math.round(a[2] + (b[2] - a[2]) * u) + ','
        + Math.round(a[3] + (b[3] - a[3]) * u) + ')';
  }
  return out;
}

/** Signed shortest distance from b to a on a circle of n slots, in (-n/2, n/2]. */
function wrapDelta(a, b, n) {
  let d = (a - b) % n;
  if (d > n / 2) d -= n; else if (d <= -n / 2) d += n;
  return d;
}

class Level {
  constructor() {
    this.level = 0;
    this.slots = 64;
    this.slotMs = 10;
    this.cursor = 0;
    this.occ = new Float64Array(64);
    this.total = 0;
    this.base = 0;      // continuous cursor position (slots) at the snapshot
    this.corr = 0;      // correction eased out after the snapshot (slots)
    this.spanMs = 0;    // as the server reported it
    // geometry, CSS px
    this.rIn = 0; this.rOut = 0; this.rMid = 0; this.band = 0;
  }
}

/** The wheel view. Call {@link WheelView#update} with each snapshot; it animates itself. */
export class WheelView {
  constructor(canvas, tip, legend, meta) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.tip = tip;
    this.legend = legend;
    this.meta = meta;
    // Two stacked canvases: the base (rings, occupancy, hub) is repainted only when a snapshot arrives; the
    // one on top (cursors, selection) is cleared and redrawn every frame. No full-canvas copy per frame.
    this.layer = document.createElement('canvas');
    this.layer.id = canvas.id + '-base';
    this.layer.setAttribute('aria-hidden', 'true');
    canvas.before(this.layer);
    this.lctx = this.layer.getContext('2d');
    this.levels = [];
    this.n = 0;
    this.tickMs = 10;
    this.pending = 0;
    this.firedTotal = 0;
    this.far = 0;             // far-tier timers (in the store, beyond the window)
    this.farFrom = NaN;       // timers due at or after this (server epoch ms) are far; NaN: no window
    this.farOut = 0; this.farIn = 0;
    this.maxCount = 0;
    this.snapAt = 0;          // performance.now() of the last snapshot
    this.snapNow = 0;         // server time of the last snapshot
    this.rate = 1;            // measured cursor speed relative to real time (1 = keeping up)
    this.lastU = -1;          // unwrapped low cursor digits of the last snapshot, ticks
    this.css = 0; this.dpr = 1; this.cx = 0; this.cy = 0; this.R = 0; this.hubR = 0;
    this.layerDirty = true;
    this.sel = { active: false, pinned: false, i: 0, s: 0, x: 0, y: 0, fromKey: false };
    this.frames = 0;
    this.framesAtReport = 0;
    this.drawMs = 0;
    this.lastFrameReport = 0;
    this.frame = this.frame.bind(this);

    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    canvas.addEventListener('pointermove', (e) => this.onPointer(e, false));
    canvas.addEventListener('pointerdown', (e) => this.onPointer(e, true));
    canvas.addEventListener('pointerleave', () => { if (!this.sel.pinned) this.clearSelection(); });
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    canvas.addEventListener('blur', () => { if (this.sel.fromKey) this.clearSelection(); });
    this.resize();
    requestAnimationFrame(this.frame);
  }

  /**
   * Takes a snapshot ({tickMs, now, pending, firedTotal, levels:[{level, slots, spanMs, cursor, occupancy}],
   * far:{count, fromMs}}).
   */
  update(snap) {
    const t = performance.now();
    const levelsIn = Array.isArray(snap.levels) ? snap.levels : [];
    const n = Math.min(levelsIn.length, MAX_LEVELS);
    const tickMs = snap.tickMs > 0 ? snap.tickMs : this.tickMs;
    const now = Number.isFinite(snap.now) ? snap.now : serverNow();

    // How fast has the server's cursor moved since the last snapshot, relative to its clock?
    let u = 0, mult = 1;
    for (let i = 0; i < Math.min(n, 4); i++) {
      const li = levelsIn[i];
      u += (li.cursor | 0) * mult;
      mult *= li.slots || (li.occupancy ? li.occupancy.length : 64);
    }
    // With wheelTimeMs (the time the server's wheel has been advanced to) the cursor's position at `now` is
    // known exactly, even while an idle server sleeps between advances. Without it, follow the server's cursor
    // at the speed it has been measured to move.
    const wheelTime = Number.isFinite(snap.wheelTimeMs) ? snap.wheelTimeMs : NaN;
    if (Number.isFinite(wheelTime)) {
      this.rate = 1;
    } else if (this.lastU >= 0 && now > this.snapNow) {
      const moved = ((u - this.lastU) % mult + mult) % mult;
      const expected = (now - this.snapNow) / tickMs;
      const r = Math.max(0, Math.min(1.5, moved / Math.max(expected, 1e-9)));
      this.rate += (r - this.rate) * 0.5;
    }
    this.lastU = u;

    const farIn = snap.far && typeof snap.far === 'object' ? snap.far : null;
    const farFrom = farIn && Number.isFinite(farIn.fromMs) ? farIn.fromMs : NaN;
    const farChanged = Number.isFinite(farFrom) !== Number.isFinite(this.farFrom);
    this.far = farIn && Number.isFinite(farIn.count) ? farIn.count : 0;
    this.farFrom = farFrom;
    const structural = farChanged || n !== this.n || tickMs !== this.tickMs
        || levelsIn.some((li, i) => i < n && (!this.levels[i] || this.levels[i].slots !== (li.slots || li.occupancy.length)));
    const phaseFrom = Number.isFinite(wheelTime) ? wheelTime : now;
    const aheadTicks = Number.isFinite(wheelTime) ? Math.max(0, now - wheelTime) / tickMs : 0;
    const frac0 = this.rate > 0.5 ? (((phaseFrom % tickMs) + tickMs) % tickMs) / tickMs + aheadTicks : 0;
    let lowerTicks = 0, slotTicks = 1, max = 0;
    for (let i = 0; i < n; i++) {
      const li = levelsIn[i];
      const occIn = Array.isArray(li.occupancy) ? li.occupancy : [];
      const slots = Math.max(1, li.slots || occIn.length || 64);
      let L = this.levels[i];
      const fresh = !L || L.slots !== slots || structural;
      const shown = L && !fresh ? this.position(L, t) : 0;
      if (!L) { L = new Level(); this.levels[i] = L; }
      if (L.occ.length !== slots) L.occ = new Float64Array(slots);
      L.level = Number.isFinite(li.level) ? li.level : i;
      L.slots = slots;
      L.slotMs = tickMs * slotTicks;
      L.spanMs = li.spanMs;
      L.cursor = ((li.cursor | 0) % slots + slots) % slots;
      L.base = L.cursor + (lowerTicks + frac0) / slotTicks;
      if (fresh) {
        L.corr = 0;
      } else {
        const d = wrapDelta(shown, L.base, slots);
        L.corr = Math.abs(d) > slots / 8 ? 0 : d;
      }
      let total = 0;
      for (let s = 0; s < slots; s++) {
        const c = +occIn[s] || 0;
        L.occ[s] = c;
        total += c;
        if (c > max) max = c;
      }
      L.total = total;
      lowerTicks += L.cursor * slotTicks;
      slotTicks *= slots;
    }
    this.levels.length = n;
    this.n = n;
    this.tickMs = tickMs;
    this.snapAt = t;
    this.snapNow = now;
    this.maxCount = max;
    this.pending = Number.isFinite(snap.pending) ? snap.pending : this.levels.reduce((a, L) => a + L.total, 0);
    this.firedTotal = snap.firedTotal;
    if (structural) { this.layout(); this.buildLegend(); }
    this.updateLegend();
    this.layerDirty = true;
    if (this.sel.active) this.showTip();
  }

  /** The cursor position of a level (slots, continuous, in [0, slots)) at performance time t. */
  position(L, t) {
    const dt = Math.min(t - this.snapAt, MAX_EXTRAPOLATE_MS);
    const p = L.base + this.rate * dt / L.slotMs + L.corr * Math.exp(-(t - this.snapAt) / EASE_MS);
    return ((p % L.slots) + L.slots) % L.slots;
  }

  resize() {
    const wrap = this.canvas.parentElement;
    const css = Math.max(120, Math.floor(Math.min(wrap.clientWidth, wrap.clientHeight || wrap.clientWidth)));
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    if (css === this.css && dpr === this.dpr) return;
    this.css = css; this.dpr = dpr;
    const px = Math.round(css * dpr);
    for (const c of [this.canvas, this.layer]) {
      c.style.width = css + 'px';      // always square, whatever the box around it
      c.style.height = css + 'px';
      c.width = px; c.height = px;
    }
    this.layout();
    this.layerDirty = true;
  }

  layout() {
    const css = this.css;
    this.cx = css / 2; this.cy = css / 2;
    this.R = css / 2 - 4;
    const n = Math.max(this.n, 1);
    // the far tier: a thin ring outside level 0, only with a window
    const farBand = Number.isFinite(this.farFrom) ? Math.max(4, this.R * 0.045) : 0;
    this.farOut = this.R;
    this.farIn = this.R - farBand;
    const outer = farBand > 0 ? this.farIn - Math.max(3, farBand * 0.6) : this.R;
    const step = Math.min((outer * 0.72) / n, outer * 0.15);
    this.hubR = outer - step * n;
    const gap = Math.max(2, step * 0.16);
    for (let i = 0; i < this.n; i++) {
      const L = this.levels[i];
      L.rOut = outer - i * step;
      L.rIn = L.rOut - step + gap;
      L.band = L.rOut - L.rIn;
      L.rMid = (L.rOut + L.rIn) / 2;
    }
  }

  paintLayer() {
    const g = this.lctx, dpr = this.dpr;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, this.layer.width, this.layer.height);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { cx, cy } = this;
    const logMax = Math.log1p(this.maxCount || 1);

    // backdrop disc
    g.fillStyle = TRACK;
    g.beginPath(); g.arc(cx, cy, this.R + 2, 0, TAU); g.fill();

    for (let i = 0; i < this.n; i++) {
      const L = this.levels[i];
      const da = TAU / L.slots;
      const gapA = Math.min(da * 0.22, 1.6 / L.rOut);
      for (let s = 0; s < L.slots; s++) {
        const a0 = TOP + s * da + gapA / 2, a1 = a0 + da - gapA;
        g.fillStyle = EMPTY_CELL;
        g.beginPath(); g.arc(cx, cy, L.rOut, a0, a1); g.arc(cx, cy, L.rIn, a1, a0, true); g.closePath(); g.fill();
        const c = L.occ[s];
        if (c > 0) {
          const v = Math.log1p(c) / logMax;
          const h = L.band * (0.28 + 0.72 * v);
          g.fillStyle = LUT[Math.min(255, Math.round(v * 255))];
          g.beginPath(); g.arc(cx, cy, L.rIn + h, a0, a1); g.arc(cx, cy, L.rIn, a1, a0, true); g.closePath(); g.fill();
        }
      }
    }

    // the far tier: one ring, its shade the far timers' share of the pending ones (log scale)
    if (this.farOut > this.farIn) {
      g.fillStyle = FAR_EMPTY;
      g.beginPath(); g.arc(cx, cy, this.farOut, 0, TAU); g.arc(cx, cy, this.farIn, TAU, 0, true); g.closePath(); g.fill();
      if (this.far > 0) {
        const v = Math.log1p(this.far) / Math.log1p(Math.max(this.far, this.pending, 1));
        g.fillStyle = LUT[Math.min(255, Math.round(v * 255))];
        g.globalAlpha = 0.35 + 0.65 * v;
        g.beginPath(); g.arc(cx, cy, this.farOut, 0, TAU); g.arc(cx, cy, this.farIn, TAU, 0, true); g.closePath(); g.fill();
        g.globalAlpha = 1;
      }
      g.strokeStyle = FAR_EDGE; g.lineWidth = 1;
      g.beginPath(); g.arc(cx, cy, this.farIn - 0.5, 0, TAU); g.stroke();
    }

    // hub
    const hr = this.hubR - 6;
    if (hr > 20) {
      const grad = g.createRadialGradient(cx, cy - hr * 0.3, hr * 0.1, cx, cy, hr);
      grad.addColorStop(0, '#18222d'); grad.addColorStop(1, '#0e141a');
      g.fillStyle = grad;
      g.beginPath(); g.arc(cx, cy, hr, 0, TAU); g.fill();
      g.strokeStyle = '#22303e'; g.lineWidth = 1;
      g.stroke();
      g.textAlign = 'center'; g.textBaseline = 'middle';
      const big = Math.max(12, Math.min(hr * 0.36, 40));
      const value = this.pending >= 1e7 ? fmtCompact(this.pending) : fmtInt(this.pending);
      g.fillStyle = '#e6eef6';
      g.font = '600 ' + Math.round(big) + 'px ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';
      g.fillText(value, cx, cy - big * 0.12, hr * 1.7);
      g.fillStyle = '#8593a3';
      const small = Math.max(9, Math.min(big * 0.34, 13));
      g.font = Math.round(small) + 'px system-ui, sans-serif';
      g.fillText('PENDING', cx, cy - big * 0.12 - big * 0.78, hr * 1.6);
      if (Number.isFinite(this.firedTotal) && hr > 46) {
        g.fillStyle = '#5b6878';
        g.fillText('fired ' + fmtInt(this.firedTotal), cx, cy + big * 0.72, hr * 1.6);
      }
    }
    this.layerDirty = false;
    this.canvas.dataset.levels = String(this.n);
    this.canvas.dataset.pending = String(this.pending);
    this.canvas.dataset.far = String(this.far);
  }

  frame(t) {
    requestAnimationFrame(this.frame);
    if (this.css === 0) return;
    if (Math.min(window.devicePixelRatio || 1, 3) !== this.dpr) this.resize();   // moved to another screen
    const start = performance.now();
    if (this.layerDirty) this.paintLayer();
    const g = this.ctx, dpr = this.dpr, { cx, cy } = this;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.lineCap = 'butt';
    for (let i = 0; i < this.n; i++) {
      const L = this.levels[i];
      const da = TAU / L.slots;
      const a = TOP + this.position(L, t) * da;
      // comet trail behind the cursor
      const trail = Math.min(da * 4, 0.9);
      const seg = trail / TRAIL_STEPS;
      g.lineWidth = L.band;
      for (let k = 0; k < TRAIL_STEPS; k++) {
        g.strokeStyle = TRAIL[k];
        g.beginPath(); g.arc(cx, cy, L.rMid, a - (k + 1) * seg, a - k * seg); g.stroke();
      }
      // the hand
      const ca = Math.cos(a), sa = Math.sin(a);
      g.strokeStyle = HEAD_GLOW; g.lineWidth = 7;
      g.beginPath(); g.moveTo(cx + ca * (L.rIn - 1), cy + sa * (L.rIn - 1)); g.lineTo(cx + ca * (L.rOut + 1), cy + sa * (L.rOut + 1)); g.stroke();
      g.strokeStyle = HEAD; g.lineWidth = 2;
      g.beginPath(); g.moveTo(cx + ca * (L.rIn - 1), cy + sa * (L.rIn - 1)); g.lineTo(cx + ca * (L.rOut + 1), cy + sa * (L.rOut + 1)); g.stroke();
    }
    if (this.sel.active && this.sel.i === -1 && this.farOut > this.farIn) {
      g.strokeStyle = HOVER; g.lineWidth = 1.5;
      g.beginPath(); g.arc(cx, cy, this.farOut + 1, 0, TAU); g.stroke();
      g.beginPath(); g.arc(cx, cy, this.farIn - 1, 0, TAU); g.stroke();
    } else if (this.sel.active && this.sel.i >= 0 && this.sel.i < this.n) {
      const L = this.levels[this.sel.i];
      const da = TAU / L.slots;
      const a0 = TOP + this.sel.s * da, a1 = a0 + da;
      g.strokeStyle = HOVER; g.lineWidth = 1.5;
      g.beginPath(); g.arc(cx, cy, L.rOut + 1, a0, a1); g.arc(cx, cy, L.rIn - 1, a1, a0, true); g.closePath(); g.stroke();
    }
    // Self-measurement, published once a second: frames drawn so far, frames in the last second, and the
    // average time one frame took to draw (ms; the layer repaint included when a snapshot arrived).
    this.frames++;
    this.drawMs += performance.now() - start;
    if (t - this.lastFrameReport >= 1000) {
      const n = this.frames - this.framesAtReport;
      this.canvas.dataset.frames = String(this.frames);
      this.canvas.dataset.fps = String(Math.round(n * 1000 / (t - this.lastFrameReport)));
      this.canvas.dataset.frameMs = n ? (this.drawMs / n).toFixed(3) : '0';
      this.lastFrameReport = t;
      this.framesAtReport = this.frames;
      this.drawMs = 0;
    }
  }

  // ---- selection: pointer hover/click and keyboard ----

  hit(x, y) {
    const dx = x - this.cx, dy = y - this.cy;
    const r = Math.hypot(dx, dy);
    if (this.farOut > this.farIn && r <= this.farOut + 1 && r >= this.farIn - 2) return { i: -1, s: 0 };
    for (let i = 0; i < this.n; i++) {
      const L = this.levels[i];
      const gapBelow = i + 1 < this.n ? (L.rIn - this.levels[i + 1].rOut) : 0;
      if (r <= L.rOut + 1 && r >= L.rIn - gapBelow) {
        let a = Math.atan2(dy, dx) - TOP;
        a = ((a % TAU) + TAU) % TAU;
        return { i, s: Math.min(L.slots - 1, Math.floor(a / (TAU / L.slots))) };
      }
    }
    return null;
  }

  onPointer(e, click) {
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    if (this.sel.pinned && !click) return;
    const h = this.hit(x, y);
    if (!h) {
      if (click) this.clearSelection();
      else if (!this.sel.pinned) this.clearSelection();
      return;
    }
    this.sel.active = true;
    this.sel.pinned = click ? !(this.sel.pinned && this.sel.i === h.i && this.sel.s === h.s) : false;
    if (click && !this.sel.pinned) { this.clearSelection(); return; }
    this.sel.fromKey = false;
    this.sel.i = h.i; this.sel.s = h.s; this.sel.x = x; this.sel.y = y;
    this.showTip();
  }

  onKey(e) {
    if (this.n === 0) return;
    const sel = this.sel;
    if (e.key === 'Escape') { this.clearSelection(); return; }
    const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'Enter', ' '];
    if (!keys.includes(e.key)) return;
    e.preventDefault();
    if (sel.active && sel.i < 0) sel.active = false;      // the far ring has no slots: start again at level 0
    if (!sel.active) {
      sel.i = 0; sel.s = Math.floor(this.position(this.levels[0], performance.now()));
    } else if (e.key === 'ArrowLeft') {
      sel.s = (sel.s - 1 + this.levels[sel.i].slots) % this.levels[sel.i].slots;
    } else if (e.key === 'ArrowRight') {
      sel.s = (sel.s + 1) % this.levels[sel.i].slots;
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const i = Math.max(0, Math.min(this.n - 1, sel.i + (e.key === 'ArrowUp' ? 1 : -1)));
      if (i !== sel.i) { sel.s = Math.floor(sel.s * this.levels[i].slots / this.levels[sel.i].slots); sel.i = i; }
    } else if (e.key === 'Home') {
      sel.s = Math.floor(this.position(this.levels[sel.i], performance.now()));
    }
    sel.active = true; sel.pinned = true; sel.fromKey = true;
    const L = this.levels[sel.i];
    const a = TOP + (sel.s + 0.5) * TAU / L.slots;
    sel.x = this.cx + Math.cos(a) * L.rMid;
    sel.y = this.cy + Math.sin(a) * L.rMid;
    this.showTip();
  }

  clearSelection() {
    this.sel.active = false; this.sel.pinned = false; this.sel.fromKey = false;
    this.tip.hidden = true;
  }

  /** Fills and places the tooltip for the selected slot: level, count, and the time range it covers. */
  showTip() {
    const sel = this.sel;
    if (sel.active && sel.i === -1) { this.showFarTip(); return; }
    if (!sel.active || sel.i >= this.n) { this.tip.hidden = true; return; }
    const L = this.levels[sel.i];
    const pos = this.position(L, performance.now());
    const cur = Math.floor(pos);
    const ahead = ((sel.s - cur) % L.slots + L.slots) % L.slots;
    const now = serverNow();
    const start = now + (ahead - (pos - cur)) * L.slotMs;
    const end = start + L.slotMs;
    const count = L.occ[sel.s];
    const when = ahead === 0
        ? 'current slot (due now, up to ' + fmtDuration(end - now) + ')'
        : 'due in ' + fmtDuration(start - now) + ' – ' + fmtDuration(end - now);
    this.tip.innerHTML =
        '<b>Level ' + L.level + '</b> · slot ' + sel.s + ' of ' + L.slots + '<br>'
        + '<span class="t-count">' + fmtInt(count) + '</span> timer' + (count === 1 ? '' : 's') + '<br>'
        + when + '<br>'
        + '<span class="t-dim">' + fmtClock(start) + ' → ' + fmtClock(end) + '</span><br>'
        + '<span class="t-dim">slot ' + fmtSpan(L.slotMs) + ' · turn ' + fmtSpan(L.slotMs * L.slots) + '</span>';
    this.placeTip(sel.fromKey);
  }

  /** The tooltip of the far ring: how many timers the store keeps beyond the window, and from when. */
  showFarTip() {
    const now = serverNow();
    const from = this.farFrom;
    this.tip.innerHTML =
        '<b>Far tier</b> · in the store<br>'
        + '<span class="t-count">' + fmtInt(this.far) + '</span> timer' + (this.far === 1 ? '' : 's') + '<br>'
        + (Number.isFinite(from) ? 'due in ' + fmtDuration(Math.max(0, from - now)) + ' or later<br>'
            + '<span class="t-dim">from ' + fmtClock(from) + '; loaded as the window reaches them</span>' : '');
    this.placeTip(false);
  }

  placeTip(fromKey) {
    const sel = this.sel;
    // Announce keyboard selections; pointer hovers would only chatter.
    this.tip.setAttribute('aria-live', fromKey ? 'polite' : 'off');
    this.tip.hidden = false;
    const w = this.tip.offsetWidth, h = this.tip.offsetHeight;
    let x = sel.x + 14, y = sel.y + 14;
    if (x + w > this.css) x = Math.max(0, sel.x - w - 14);
    if (y + h > this.css) y = Math.max(0, sel.y - h - 14);
    this.tip.style.left = x + 'px';
    this.tip.style.top = y + 'px';
  }

  // ---- the legend beside the wheel ----

  buildLegend() {
    this.legend.textContent = '';
    this.legendCounts = [];
    for (let i = 0; i < this.n; i++) {
      const L = this.levels[i];
      const li = document.createElement('li');
      const lv = document.createElement('span'); lv.className = 'lv'; lv.textContent = 'L' + L.level;
      const cnt = document.createElement('span'); cnt.className = 'cnt';
      const span = document.createElement('span'); span.className = 'span';
      span.textContent = L.slots + ' × ' + fmtSpan(L.slotMs) + ' = ' + fmtSpan(L.slotMs * L.slots) + ' turn';
      li.append(lv, cnt, span);
      this.legend.append(li);
      this.legendCounts.push(cnt);
    }
    this.farCount = null;
    if (Number.isFinite(this.farFrom)) {
      const li = document.createElement('li');
      li.className = 'far';
      const lv = document.createElement('span'); lv.className = 'lv'; lv.textContent = 'far';
      const cnt = document.createElement('span'); cnt.className = 'cnt';
      const span = document.createElement('span'); span.className = 'span';
      span.textContent = 'in the store, beyond the window';
      li.append(lv, cnt, span);
      this.legend.append(li);
      this.farCount = cnt;
    }
    const horizon = this.n ? this.levels[this.n - 1].slotMs * this.levels[this.n - 1].slots : 0;
    this.meta.textContent = this.n
        ? 'tick ' + fmtSpan(this.tickMs) + ' · ' + this.n + ' level' + (this.n === 1 ? '' : 's') + ' · reach ' + fmtSpan(horizon)
        : 'no levels yet';
  }

  updateLegend() {
    if (!this.legendCounts) return;
    for (let i = 0; i < this.n && i < this.legendCounts.length; i++) {
      const c = this.levels[i].total;
      const el = this.legendCounts[i];
      el.textContent = fmtInt(c);
      el.classList.toggle('zero', c === 0);
    }
    if (this.farCount) {
      this.farCount.textContent = fmtInt(this.far);
      this.farCount.classList.toggle('zero', this.far === 0);
    }
    const ramp = document.getElementById('ramp-max');
    if (ramp) ramp.textContent = fmtInt(this.maxCount) + ' / slot';
  }
}
