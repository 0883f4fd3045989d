// The bearer token: kept in this tab's sessionStorage only, never in the address bar. A 401 from any call
// opens the token dialog; saving a token notifies listeners so streams reconnect and views reload.

const KEY = 'tickwheel.token';
const listeners = new Set();
let dialogOpen = false;

/** The current token, or '' when none. */
export function getToken() {
  try { return sessionStorage.getItem(KEY) || ''; } catch { return ''; }
}

function setToken(token) {
  try {
    if (token) sessionStorage.setItem(KEY, token); else sessionStorage.removeItem(KEY);
  } catch { /* storage disabled: the token lives until reload */ }
  for (const fn of listeners) fn(token);
}

/** Calls fn(token) whenever the token changes. */
export function onTokenChange(fn) {
  listeners.add(fn);
}

/**
 * Takes a token handed over in the URL (?access_token= or #access_token=) into sessionStorage and removes it
 * from the address bar with history.replaceState, so it is neither shown nor kept in history.
 */
export function adoptTokenFromUrl() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const token = url.searchParams.get('access_token') || hash.get('access_token');
  if (!token) return;
  try { sessionStorage.setItem(KEY, token); } catch { /* ignore */ }
  url.searchParams.delete('access_token');
  hash.delete('access_token');
  const h = hash.toString();
  url.hash = h ? '#' + h : '';
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

/** Opens the token dialog (once, however many calls fail with 401 at the same time). */
export function requestToken(reason) {
  const dialog = document.getElementById('token-dialog');
  if (!dialog || dialogOpen) return;
  dialogOpen = true;
  document.getElementById('token-why').textContent = reason ||
    (getToken() ? 'The server rejected the token. Enter a valid one.' : 'This server requires a bearer token.');
  const input = document.getElementById('token-input');
  input.value = '';
  dialog.showModal();
  input.focus();
}

/** Wires the dialog and the header button. */
export function initAuth() {
  adoptTokenFromUrl();
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const btn = document.getElementById('token-btn');
  const refreshButton = () => { btn.textContent = getToken() ? 'Token ✓' : 'Access token'; };
  refreshButton();
  onTokenChange(refreshButton);

  btn.addEventListener('click', () => requestToken(getToken()
    ? 'A token is set for this tab. Enter a new one, or forget it.'
    : 'Enter the token the server was started with (--token).'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = input.value.trim();
    if (!v) { input.setAttribute('aria-invalid', 'true'); input.focus(); return; }
    input.removeAttribute('aria-invalid');
    dialog.close();
    setToken(v);
  });
  document.getElementById('token-cancel').addEventListener('click', () => dialog.close());
  document.getElementById('token-forget').addEventListener('click', () => { dialog.close(); setToken(''); });
  dialog.addEventListener('close', () => { dialogOpen = false; input.value = ''; });
}
