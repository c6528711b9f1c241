// A per-user limit on tool calls (TOOL_CALLS_PER_MINUTE): whatever a call turns out to be (valid,
// refused, unaffordable), it costs the server something, so an account cannot make it do that
// work without bound. Counted in the database, so every web process sees the same count.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type ProfileWithStorage, readOrCreateProfileWithStorage, withStorageUsed } from '../../accounts/profiles';
import type { SessionReader, SessionRow, SessionUser } from '../../auth/session';
import { type AppDb, executePrepared } from '../../db/client';

export const TOOL_CALL_WINDOW_SECONDS = 60;
/** The rate_limit row of an account's tool calls is `tool-calls:<user id>`. */
export const TOOL_CALLS_KEY_PREFIX = 'tool-calls:';

export type ToolCallVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The call counted, the window it was counted in (its RateLimit headers, api-keys/rate-window.ts),
 * and who makes it: their profile with the bytes their files take.
 */
export type CountedCall = {
  limit: ToolCallVerdict;
  window: { count: number; windowStart: number };
  caller: ProfileWithStorage | null;
};

/**
 * Reads the session of a tool call, counts the call in the user's current fixed window and reads
 * the caller's profile with the bytes their files take, all in ONE statement (each statement is a
 * round trip, issue 20); null when signed out (auth/session.ts judges the session as for any call).
 * The count is one upsert: concurrent calls on any process increment the same row, so none slips
 * past. The row lives in better-auth's rate_limit table under a key of ours ("tool-calls:<user>"),
 * where `last_request` holds the start of the window. A call made with an expired session is
 * counted for its user before the session is found expired: harmless, the user is signed out.
 */
export async function readSessionAndCountCall(
  auth: { readSessionUser: SessionReader },
  db: AppDb,
  headers: Headers,
  perWindow: number,
): Promise<({ user: SessionUser } & CountedCall) | null> {
  const now = Date.now();
  const windowMs = TOOL_CALL_WINDOW_SECONDS * 1000;
  const windowOver = sql`rate_limit.last_request <= ${now - windowMs}`;
  const read = await auth.readSessionUser.with(headers, async (who) => {
    const { rows } = await executePrepared(
      db,
      sql`with ${who},
      counted as (
        insert into rate_limit (id, key, count, last_request)
        select ${randomUUID()}, ${TOOL_CALLS_KEY_PREFIX} || sess.id, 1, ${now}::bigint from sess
        on conflict (key) do update set
          count = case when ${windowOver} then 1 else rate_limit.count + 1 end,
          last_request = case when ${windowOver} then ${now}::bigint else rate_limit.last_request end
        returning count, last_request)
      select sess.*, counted.count, counted.last_request as window_start,
        p.user_id is not null as has_profile, p.tokens, p.is_dispute, p.is_fraudulent, p.stripe_customer_id,
        p.storage_used
      from sess cross join counted left join profiles p on p.user_id = sess.id`,
    );
    return (rows[0] as CountedRow | undefined) ?? null;
  });
  if (!read) return null;
  const { user, row } = read;
  const limit: ToolCallVerdict =
    Number(row.count) <= perWindow
      ? { allowed: true }
      : {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000)),
        };
  // No profile row (its creation at sign-up failed): made here, as every other read does.
  const caller = row.has_profile
    ? withStorageUsed(
        {
          email: row.email,
          emailVerified: row.email_verified === true,
          tokens: Number(row.tokens),
          isDispute: row.is_dispute === true,
          isFraudulent: row.is_fraudulent === true,
          stripeCustomerId: row.stripe_customer_id,
        },
        row.storage_used,
      )
    : await readOrCreateProfileWithStorage(db, user.id);
  return { user, limit, window: { count: Number(row.count), windowStart: Number(row.window_start) }, caller };
}

type CountedRow = SessionRow & {
  count: number | string;
  window_start: number | string;
  has_profile: boolean;
  tokens: number | null;
  is_dispute: boolean | null;
  is_fraudulent: boolean | null;
  stripe_customer_id: string | null;
  storage_used: string | number | null;
};
