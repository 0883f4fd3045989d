// The HTTP API: one fetch wrapper that adds the token, parses JSON and turns the server's error shape
// {"error":{"code","message","field"}} into an ApiError. URLs are resolved against the server root (the
// console lives at <root>/console/), so the console also works behind a path prefix.

import { getToken, requestToken } from './auth.js';

const ROOT = new URL('../', document.baseURI);

/** An API failure: HTTP status, the server's code and message, and the offending field when it named one. */
export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field || null;
  }
}

/** An absolute URL for an API path ("v1/timers") with query parameters (empty values are left out). */
export function apiUrl(path, params) {
  const url = new URL(path, ROOT);
  if (params) {
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    }
  }
  return url;
}

/**
 * A URL for EventSource/WebSocket, which cannot send headers: the token goes in ?access_token=. Such URLs
 * are only handed to EventSource, never shown in the address bar.
 */
export function streamUrl(path, params) {
  const url = apiUrl(path, params);
  const token = getToken();
  if (token) url.searchParams.set('access_token', token);
  return url.href;
}

/**
 * Calls the API. Resolves to the parsed JSON body (null for 204); rejects with an ApiError for a non-2xx
 * answer (a 401 also opens the token dialog) and with ApiError(0, 'unavailable') when the server is unreachable.
 */
export async function api(method, path, { params, body, signal } = {}) {
  const headers = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = 'Bearer ' + token;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(apiUrl(path, params), { method, headers, body: payload, signal, cache: 'no-store' });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'unavailable', 'The server cannot be reached.');
  }
  if (res.status === 204) return null;
  const text = await res.text();
  let json = null;
  if (text) {
    try { json = JSON.parse(text); } catch { json = null; }
  }
  if (res.ok) return json;
  const err = json && json.error ? json.error : {};
  if (res.status === 401) requestToken();
  throw new ApiError(res.status, err.code || 'http_' + res.status,
      err.message || (res.status + ' ' + (res.statusText || 'error')), err.field);
}
