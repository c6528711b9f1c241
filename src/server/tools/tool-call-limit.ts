// A per-user limit on tool calls (TOOL_CALLS_PER_MINUTE): whatever a call turns out to be (valid,
// refused, unaffordable), it costs the server something, so an account cannot make it do that
// work without bound. Counted in the database, so every web process sees the same count.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Profile } from '../../contract/accounts';
import {
  PROFILE_FIELDS,
  type ProfileWithStorage,
  readOrCreateProfileWithStorage,
  withStorageUsed,
} from '../accounts/profiles';
import { storageUsedSql } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import { profiles, rateLimit, user } from '../db/schema';

export const TOOL_CALL_WINDOW_SECONDS = 60;

export type ToolCallVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The call counted, and who makes it: their profile with the bytes their files take. */
export type CountedCall = { limit: ToolCallVerdict; caller: ProfileWithStorage | null };

/**
 * Counts one call of the user in the current fixed window and says whether it is within `perWindow`,
 * and reads the caller's profile (readOrCreateProfileWithStorage) in the same statement: a tool
 * call needs both, and each statement is a round trip (issue 20).
 * The count is one upsert: concurrent calls on any process increment the same row, so none slips
 * past. The row lives in better-auth's rate_limit table under a key of ours ("tool-calls:<user>"),
 * where `last_request` holds the start of the window.
 */
export async function countCallAndReadCaller(db: AppDb, userId: string, perWindow: number): Promise<CountedCall> {
  const now = Date.now();
  const windowMs = TOOL_CALL_WINDOW_SECONDS * 1000;
  const windowOver = sql`${rateLimit.lastRequest} <= ${now - windowMs}`;
  const counted = db.$with('counted').as(
    db
      .insert(rateLimit)
      .values({ id: randomUUID(), key: `tool-calls:${userId}`, count: 1, lastRequest: now })
      .onConflictDoUpdate({
        target: rateLimit.key,
        set: {
          count: sql`case when ${windowOver} then 1 else ${rateLimit.count} + 1 end`,
          lastRequest: sql`case when ${windowOver} then ${now} else ${rateLimit.lastRequest} end`,
        },
      })
      .returning({ count: rateLimit.count, windowStart: rateLimit.lastRequest }),
  );
  const [row] = await db
    .with(counted)
    .select({
      count: counted.count,
      windowStart: counted.windowStart,
      hasProfile: sql<boolean>`${profiles.userId} is not null`,
      ...PROFILE_FIELDS,
      storageUsed: storageUsedSql(profiles.userId),
    })
    .from(counted)
    .leftJoin(profiles, eq(profiles.userId, userId))
    .leftJoin(user, eq(user.id, profiles.userId))
    .prepare('count_tool_call_and_read_caller') // planned once per connection (client.ts executePrepared)
    .execute();
  if (!row) throw new Error('the tool-call count returned no row');
  const { count, windowStart, hasProfile, storageUsed, ...profile } = row;
  const limit: ToolCallVerdict =
    Number(count) <= perWindow
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(windowStart) + windowMs - now) / 1000)) };
  // No profile row (its creation at sign-up failed): made here, as every other read does.
  const caller = hasProfile
    ? withStorageUsed(profile as Profile, storageUsed) // joined: its columns are there
    : await readOrCreateProfileWithStorage(db, userId);
  return { limit, caller };
}
