import { TickwheelError, ErrorCodes } from '../errors.js';
import type { TimerInfo } from '../types.js';

/** Server answers to client outcomes. */

/** `text` as JSON, or `text` itself when it is not JSON, or undefined when empty. */
export function decode(text: string): unknown {
  if (text.length === 0) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The status of a result item; 0 if missing. */
export function statusOf(result: Record<string, unknown>): number {
  return typeof result['status'] === 'number' ? result['status'] : 0;
}

/**
 * The error for a non-2xx answer whose error is `{"code","message","field"?}` or the whole body `{"error":{…}}`;
 * anything else is kept as the message. A 503 may have been applied unless its message says "not applied".
 */
export function errorOf(status: number, error: unknown): TickwheelError {
  if (isObject(error) && isObject(error['error'])) {
    error = error['error'];
  }
  if (isObject(error)) {
    const message = typeof error['message'] === 'string' ? error['message'] : `status ${status}`;
    const code = typeof error['code'] === 'string' ? error['code'] : `status_${status}`;
    const field = typeof error['field'] === 'string' ? error['field'] : undefined;
    return new TickwheelError(status, code, field, message, status === 503 && !message.includes('not applied'));
  }
  return new TickwheelError(status, `status_${status}`, undefined,
    `status ${status}${error === undefined ? '' : `: ${shorten(String(error))}`}`, status === 503);
}

/** A 2xx result item's timer, else the item's error (thrown). */
export function timerOf(result: Record<string, unknown>): TimerInfo {
  const status = statusOf(result);
  if (status >= 200 && status < 300) {
    const t = result['timer'];
    if (!isObject(t)) {
      throw TickwheelError.client(ErrorCodes.PROTOCOL, `result ${status} without a timer: `
        + shorten(JSON.stringify(result)), true);
    }
    return t as TimerInfo;
  }
  throw errorOf(status, result['error']);
}

export function shorten(s: string): string {
  return s.length <= 200 ? s : `${s.slice(0, 200)}…`;
}

/**
 * The `results` of a batch answer (`POST path` of `count` items), one per item in order; or, for a non-200 answer or
 * one without as many results, `undefined` after calling `rejectAll` with the error every item then gets.
 */
export function batchResults(path: string, count: number, noun: string, status: number, text: string,
    rejectAll: (e: TickwheelError) => void): unknown[] | undefined {
  const decoded = decode(text);
  if (status !== 200) {
    rejectAll(errorOf(status, decoded));
    return undefined;
  }
  const results = isObject(decoded) && Array.isArray(decoded['results']) ? decoded['results'] as unknown[] : undefined;
  if (results === undefined || results.length !== count) {
    rejectAll(TickwheelError.client(ErrorCodes.PROTOCOL, `POST ${path} with ${count} ${noun}: 200 without as `
      + `many results: ${shorten(text)}`, true));
    return undefined;
  }
  return results;
}
