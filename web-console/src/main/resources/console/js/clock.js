// The server's clock as seen from this tab. Countdowns and the wheel's cursor use server time, so a skewed
// laptop clock does not make timers look early or late. The offset is smoothed to ignore network jitter.

let offset = 0;
let known = false;

/** Feed a server timestamp (epoch ms) that was produced "just now". */
export function observeServerTime(serverMs) {
  if (!Number.isFinite(serverMs)) return;
  const o = serverMs - Date.now();
  if (!known || Math.abs(o - offset) > 5000) {
    offset = o;
    known = true;
  } else {
    offset += (o - offset) * 0.1;
  }
}

/** The server's current time, epoch ms (the local clock until the server has been heard from). */
export function serverNow() {
  return Date.now() + offset;
}
