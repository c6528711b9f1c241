// The tool call's first statement: the session read, the call counted in the account's window
// (TOOL_CALLS_PER_MINUTE, rate-limit/tool-call-window.ts) and the caller's profile read, in ONE
// statement. Whatever a call turns out to be (valid, refused, unaffordable), it costs the server
// something, so an account cannot make it do that work without bound.
import { sql } from 'drizzle-orm';
import type { SessionReader, SessionRow, SessionUser } from '../../auth/session';
import { type AppDb, executePrepared } from '../../db/client';
import { type ProfileWithStorage, readOrCreateProfileWithStorage, withStorageUsed } from '../../profiles/profiles';
import { countedCall, type ToolCallVerdict, verdictOf } from '../../rate-limit/tool-call-window';

/**
 * The call counted, the window it was counted in (its RateLimit headers), and who makes it: their
 * profile with the bytes their files take.
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
 * A call made with an expired session is counted for its user before the session is found expired:
 * harmless, the user is signed out.
 */
export async function readSessionAndCountCall(
  auth: { readSessionUser: SessionReader },
  db: AppDb,
  headers: Headers,
  perWindow: number,
): Promise<({ user: SessionUser } & CountedCall) | null> {
  const now = Date.now();
  const read = await auth.readSessionUser.with(headers, async (who) => {
    const { rows } = await executePrepared(
      db,
      sql`with ${who}, ${countedCall(now)}
      select sess.*, counted.count, counted.last_request as window_start,
        p.user_id is not null as has_profile, p.tokens, p.is_dispute, p.is_fraudulent, p.stripe_customer_id,
        p.storage_used
      from sess cross join counted left join profiles p on p.user_id = sess.id`,
    );
    return (rows[0] as CountedRow | undefined) ?? null;
  });
  if (!read) return null;
  const { user, row } = read;
  const window = { count: Number(row.count), windowStart: Number(row.window_start) };
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
  return { user, limit: verdictOf(window, perWindow, now), window, caller };
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
