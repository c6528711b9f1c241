// A per-user limit on tool calls (TOOL_CALLS_PER_MINUTE): whatever a call turns out to be (valid,
// refused, unaffordable), it costs the server something, so an account cannot make it do that
// work without bound. Counted in the database, so every web process sees the same count.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';

export const TOOL_CALL_WINDOW_SECONDS = 60;

export type ToolCallVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one call of the user in the current fixed window and says whether it is within `perWindow`.
 * One statement: concurrent calls on any process increment the same row, so none slips past.
 * The row lives in better-auth's rate_limit table under a key of ours ("tool-calls:<user>"), where
 * `last_request` holds the start of the window.
 */
export async function countToolCall(db: AppDb, userId: string, perWindow: number): Promise<ToolCallVerdict> {
  const now = Date.now();
  const windowMs = TOOL_CALL_WINDOW_SECONDS * 1000;
  const result = (await db.execute(sql`
    insert into rate_limit (id, key, count, last_request)
    values (${randomUUID()}, ${`tool-calls:${userId}`}, 1, ${now})
    on conflict (key) do update set
      count = case when rate_limit.last_request <= ${now - windowMs} then 1 else rate_limit.count + 1 end,
      last_request = case when rate_limit.last_request <= ${now - windowMs} then ${now} else rate_limit.last_request end
    returning count, last_request`)) as unknown as { rows: { count: number; last_request: string | number }[] };
  const [row] = result.rows;
  if (!row || Number(row.count) <= perWindow) return { allowed: true };
  const windowEnds = Number(row.last_request) + windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
}
