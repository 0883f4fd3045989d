// Number, duration and time formatting shared by the views. Formatters are created once (Intl objects
// are costly to build); every function is pure and allocation-light.

const intFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDec = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const compactFmt = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** 1234567 -> "1,234,567"; null/NaN -> "—". */
export function fmtInt(n) {
  return Number.isFinite(n) ? intFmt.format(n) : '—';
}

/** 1234567 -> "1.2M". */
export function fmtCompact(n) {
  return Number.isFinite(n) ? compactFmt.format(n) : '—';
}

/** A rate: one decimal below 100, integer above. */
export function fmtRate(n) {
  if (!Number.isFinite(n)) return '—';
  return n < 100 ? oneDec.format(n) : intFmt.format(n);
}

/** A short latency in ms: "0.42", "3.1", "120". */
export function fmtLatency(ms) {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return intFmt.format(Math.round(ms));
}

/** A duration, compact and exact enough for an operator: "850 ms", "4.3 s", "2 m 05 s", "3 h 12 m", "4 d 2 h", "12.4 y". */
export function fmtDuration(ms) {
  if (!Number.isFinite(ms)) return '—';
  const a = Math.abs(ms);
  if (a < 1000) return Math.round(a) + ' ms';
  if (a < 10_000) return (a / 1000).toFixed(2) + ' s';
  if (a < 60_000) return (a / 1000).toFixed(1) + ' s';
  if (a < 3_600_000) {
    const m = Math.floor(a / 60_000), s = Math.floor((a % 60_000) / 1000);
    return m + ' m ' + (s < 10 ? '0' : '') + s + ' s';
  }
  if (a < 86_400_000) {
    const h = Math.floor(a / 3_600_000), m = Math.floor((a % 3_600_000) / 60_000);
    return h + ' h ' + (m < 10 ? '0' : '') + m + ' m';
  }
  if (a < 365 * 86_400_000) {
    const d = Math.floor(a / 86_400_000), h = Math.floor((a % 86_400_000) / 3_600_000);
    return d + ' d ' + h + ' h';
  }
  return (a / (365.25 * 86_400_000)).toFixed(1) + ' y';
}

/** A slot or level span: "10 ms", "640 ms", "41 s", "44 min", "1.9 d", "122 d", "21 y". */
export function fmtSpan(ms) {
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (ms < 60_000) return +(ms / 1000).toPrecision(3) + ' s';
  if (ms < 3_600_000) return +(ms / 60_000).toPrecision(3) + ' min';
  if (ms < 86_400_000) return +(ms / 3_600_000).toPrecision(3) + ' h';
  if (ms < 365 * 86_400_000) return +(ms / 86_400_000).toPrecision(3) + ' d';
  const y = ms / (365.25 * 86_400_000);
  return (y < 1e6 ? +y.toPrecision(3) : fmtCompact(y)) + ' y';
}

/** Time until a due instant: "in 4.30 s", "due now", "overdue 120 ms". */
export function fmtCountdown(deltaMs) {
  if (deltaMs > 0) return 'in ' + fmtDuration(deltaMs);
  if (deltaMs > -1) return 'due now';
  return 'overdue ' + fmtDuration(-deltaMs);
}

function pad2(n) { return n < 10 ? '0' + n : '' + n; }
function pad3(n) { return n < 10 ? '00' + n : n < 100 ? '0' + n : '' + n; }

/** Local wall clock with milliseconds: "03:14:07.120". */
export function fmtClock(epochMs) {
  if (!Number.isFinite(epochMs)) return '—';
  const d = new Date(epochMs);
  return pad2(d.getHours()) + ':' + pad2(d.getMinutes()) + ':' + pad2(d.getSeconds()) + '.' + pad3(d.getMilliseconds());
}

/** Local wall clock to the second: "03:14:07". */
export function fmtClockSec(epochMs) {
  if (!Number.isFinite(epochMs)) return '—';
  const d = new Date(epochMs);
  return pad2(d.getHours()) + ':' + pad2(d.getMinutes()) + ':' + pad2(d.getSeconds());
}

/** Local date and time: "2026-11-22 03:14:07" (the date is left out when it is today). */
export function fmtDateTime(epochMs, todayMs = Date.now()) {
  if (!Number.isFinite(epochMs)) return '—';
  const d = new Date(epochMs), t = new Date(todayMs);
  const time = pad2(d.getHours()) + ':' + pad2(d.getMinutes()) + ':' + pad2(d.getSeconds());
  if (d.getFullYear() === t.getFullYear() && d.getMonth() === t.getMonth() && d.getDate() === t.getDate()) return time;
  return d.getFullYear() + '-' + pad2(d.getMonth() + 1) + '-' + pad2(d.getDate()) + ' ' + time;
}

/** JSON for a one-line preview, cut to {@code max} characters. */
export function previewJson(value, max = 120) {
  if (value === undefined || value === null) return '';
  let s;
  try { s = JSON.stringify(value); } catch { s = String(value); }
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
