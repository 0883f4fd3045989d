// The token's role (GET /v1/me): with a read token the console shows everything but its actions are disabled,
// each saying why, and a note in the header says so. Re-asked whenever the token changes.

import { api } from './api.js';
import { onTokenChange } from './auth.js';

// The controls that change something: they need a write token.
const WRITE_CONTROLS = '#timers-table button[data-action], #topics-table button[data-action], '
  + '#deliveries-table button[data-action], #create-submit';
const WHY = 'Your token is read-only (role read): scheduling, touching, pausing, firing, cancelling and retrying '
  + 'need a write or admin token.';

let role = 'admin';

/** The role of the token in use: 'read', 'write' or 'admin' (until known: 'admin', the server decides anyway). */
export function currentRole() {
  return role;
}

function apply(root) {
  const readOnly = role === 'read';
  for (const el of root.querySelectorAll(WRITE_CONTROLS)) {
    if (readOnly) {
      el.disabled = true;
      el.dataset.readOnly = 'true';
      el.title = WHY;
      el.setAttribute('aria-disabled', 'true');
    } else if (el.dataset.readOnly) {
      el.disabled = false;
      delete el.dataset.readOnly;
      el.removeAttribute('title');
      el.removeAttribute('aria-disabled');
    }
  }
  const note = document.getElementById('role-note');
  if (note) {
    note.hidden = !readOnly;
    note.textContent = readOnly ? WHY : '';
  }
  document.documentElement.dataset.role = role;
}

async function refresh() {
  try {
    const me = await api('GET', 'v1/me');
    role = me && me.role ? me.role : 'admin';
  } catch {
    role = 'admin';     // unknown: leave the controls on; the server answers 401/403 if they are not allowed
  }
  apply(document);
}

/** Asks the server for the token's role now and whenever the token changes; keeps new controls in step. */
export function initRole() {
  new MutationObserver((changes) => {
    if (role !== 'read') return;
    for (const c of changes) {
      for (const n of c.addedNodes) {
        if (n.nodeType === 1) apply(n.parentElement || document);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
  onTokenChange(refresh);
  refresh();
}
