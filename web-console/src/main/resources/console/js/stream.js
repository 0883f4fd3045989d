// The live wheel: the server pushes a snapshot (event "wheel") about every 250 ms on /v1/wheel/stream.
// EventSource reconnects on its own after network errors; when the server closes the stream for good
// (401, 404, …) we probe /v1/wheel to tell "needs a token" from "no stream on this server" (then poll
// /v1/wheel at 2 Hz) from "server down" (retry with backoff).

import { api, streamUrl, ApiError } from './api.js';
import { onTokenChange } from './auth.js';

const POLL_MS = 500;

/**
 * Opens the stream. onSnapshot(snapshot) gets every snapshot, onState(state, detail) gets connection states:
 * 'connecting', 'live', 'polling', 'down', 'auth'. Returns { close() }.
 */
export function openWheelStream({ onSnapshot, onState }) {
  let es = null;
  let pollTimer = 0;
  let retryTimer = 0;
  let backoff = 1000;
  let closed = false;

  const stopAll = () => {
    if (es) { es.close(); es = null; }
    clearTimeout(pollTimer); pollTimer = 0;
    clearTimeout(retryTimer); retryTimer = 0;
  };

  const connect = () => {
    stopAll();
    if (closed) return;
    onState('connecting');
    es = new EventSource(streamUrl('v1/wheel/stream'));
    es.addEventListener('open', () => { backoff = 1000; onState('live'); });
    es.addEventListener('wheel', (e) => {
      let snap;
      try { snap = JSON.parse(e.data); } catch { return; }
      onSnapshot(snap);
    });
    es.addEventListener('error', () => {
      if (!es) return;
      if (es.readyState === EventSource.CLOSED) {
        es.close(); es = null;
        probe();
      } else {
        onState('connecting', 'reconnecting…');
      }
    });
  };

  // The stream was refused: find out why from the plain endpoint.
  const probe = async () => {
    try {
      const snap = await api('GET', 'v1/wheel');
      onSnapshot(snap);
      // The server answers /v1/wheel but not the stream: poll instead.
      onState('polling');
      pollTimer = setTimeout(poll, POLL_MS);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        onState('auth');            // the token dialog is open; onTokenChange reconnects
      } else {
        onState('down', e.message);
        retryTimer = setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 15000);
      }
    }
  };

  const poll = async () => {
    if (closed) return;
    try {
      onSnapshot(await api('GET', 'v1/wheel'));
      onState('polling');
      pollTimer = setTimeout(poll, POLL_MS);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onState('auth');
      else { onState('down', e.message); retryTimer = setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 15000); }
    }
  };

  onTokenChange(() => { backoff = 1000; connect(); });
  connect();
  return { close() { closed = true; stopAll(); } };
}
