// The per-account limit on tool calls (TOOL_CALLS_PER_MINUTE) and its RateLimit headers: one fixed
// window per account, counted in the database (so every web process sees the same count) in
// better-auth's rate_limit table under a key of ours, `tool-calls:<user id>`, where `last_request`
// holds the start of the window. The window is counted or read inside a statement the request runs
// anyway (no statement of its own): the tool call's (jobs/request/tool-call-limit.ts) counts it, a
// key's other reads (auth/session.ts) read it. Below auth and jobs: it knows nothing of either.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { RATE_LIMIT_HEADERS } from '../../contract/api-keys';

export const TOOL_CALL_WINDOW_SECONDS = 60;
const WINDOW_MS = TOOL_CALL_WINDOW_SECONDS * 1000;
/** The rate_limit row of an account's tool calls is `tool-calls:<user id>`. */
export const TOOL_CALLS_KEY_PREFIX = 'tool-calls:';

/** The account's window as the database holds it: calls counted since `windowStart` (ms); null: none yet. */
export type RateWindow = { count: number; windowStart: number } | null;

export type ToolCallVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

declare module 'hono' {
  interface ContextVariableMap {
    /**
     * The window an API key's read found with the key's owner (auth/session.ts `sessionUser`), for
     * api-keys/key-gate.ts to answer as RateLimit headers once the route has answered. Unset when
     * no key was read; `window` null when the account has no window yet.
     */
    keyRateWindow: { window: RateWindow } | undefined;
  }
}

/**
 * `counted`: the call counted in the account of `sess` (a statement's common table expression: one
 * row, the session's user), answering the window's `count` and its start, `last_request`. One
 * upsert: concurrent calls on any process increment the same row, so none slips past; a window
 * that is over starts again at 1.
 */
export function countedCall(now: number): SQL {
  const windowOver = sql`rate_limit.last_request <= ${now - WINDOW_MS}`;
  return sql`counted as (
    insert into rate_limit (id, key, count, last_request)
    select ${randomUUID()}, ${TOOL_CALLS_KEY_PREFIX} || sess.id, 1, ${now}::bigint from sess
    on conflict (key) do update set
      count = case when ${windowOver} then 1 else rate_limit.count + 1 end,
      last_request = case when ${windowOver} then ${now}::bigint else rate_limit.last_request end
    returning count, last_request)`;
}

/** The join that reads the window of `sess`'s account as it stands (not counted) as `r`: `r.count`, `r.last_request`. */
export const windowOfSession: SQL = sql`left join rate_limit r on r.key = ${TOOL_CALLS_KEY_PREFIX} || sess.id`;

/** Whole seconds until the open window ends (at least 1). */
const secondsLeft = (window: NonNullable<RateWindow>, now: number) =>
  Math.max(1, Math.ceil((window.windowStart + WINDOW_MS - now) / 1000));

/** Whether a call counted as the window's `count`-th may go on, or in how many seconds the window ends. */
export function verdictOf(window: NonNullable<RateWindow>, perWindow: number, now = Date.now()): ToolCallVerdict {
  return window.count <= perWindow
    ? { allowed: true }
    : { allowed: false, retryAfterSeconds: secondsLeft(window, now) };
}

export type RateLimitValues = { limit: number; remaining: number; resetSeconds: number };

export function rateLimitValues(window: RateWindow, limit: number, now = Date.now()): RateLimitValues {
  // No window, or one that is over: the next call opens a whole new one.
  if (!window || window.windowStart <= now - WINDOW_MS)
    return { limit, remaining: limit, resetSeconds: TOOL_CALL_WINDOW_SECONDS };
  return {
    limit,
    remaining: Math.max(0, limit - window.count),
    resetSeconds: secondsLeft(window, now),
  };
}

/**
 * The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers (the IETF draft's names) of the
 * answer: set before the route answers (a tool call's) or on its answer once made (a key's read).
 */
export function setRateLimitHeaders(c: Context, values: RateLimitValues) {
  c.header(RATE_LIMIT_HEADERS.limit, String(values.limit));
  c.header(RATE_LIMIT_HEADERS.remaining, String(values.remaining));
  c.header(RATE_LIMIT_HEADERS.reset, String(values.resetSeconds));
}
