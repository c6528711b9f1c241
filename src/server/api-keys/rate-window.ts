// The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers (the IETF draft's names):
// the account's current window of tool calls (jobs/request/tool-call-limit.ts). A tool call
// answers its counted window; a key's other reads answer the window as it stands (read, not
// counted). Both come from the statement the request runs anyway (no statement of their own).
import type { Context } from 'hono';
import { RATE_LIMIT_HEADERS } from '../../contract/api-keys';
import { TOOL_CALL_WINDOW_SECONDS } from '../jobs/request/tool-call-limit';

/** The account's window as the database holds it: calls counted since `windowStart` (ms); null: none yet. */
export type RateWindow = { count: number; windowStart: number } | null;

export type RateLimitValues = { limit: number; remaining: number; resetSeconds: number };

export function rateLimitValues(window: RateWindow, limit: number, now = Date.now()): RateLimitValues {
  const windowMs = TOOL_CALL_WINDOW_SECONDS * 1000;
  // No window, or one that is over: the next call opens a whole new one.
  if (!window || window.windowStart <= now - windowMs)
    return { limit, remaining: limit, resetSeconds: TOOL_CALL_WINDOW_SECONDS };
  return {
    limit,
    remaining: Math.max(0, limit - window.count),
    resetSeconds: Math.max(1, Math.ceil((window.windowStart + windowMs - now) / 1000)),
  };
}

export function setRateLimitHeaders(c: Context, values: RateLimitValues) {
  c.header(RATE_LIMIT_HEADERS.limit, String(values.limit));
  c.header(RATE_LIMIT_HEADERS.remaining, String(values.remaining));
  c.header(RATE_LIMIT_HEADERS.reset, String(values.resetSeconds));
}

/**
 * The window the session reader read with a key's owner (auth/session.ts), by the request's
 * headers (a Request's `headers` is one object for its life): api-keys/key-gate.ts sets the
 * headers from it once the route has answered. Weak: it goes with the request.
 */
const windowsRead = new WeakMap<Headers, RateWindow>();

export function noteRateWindow(headers: Headers, window: RateWindow) {
  windowsRead.set(headers, window);
}

export function rateWindowRead(headers: Headers): { window: RateWindow } | null {
  return windowsRead.has(headers) ? { window: windowsRead.get(headers) ?? null } : null;
}
