// The spec's user profile, owned by the server: created with the signup bonus, read for the
// session user only. Nothing here changes tokens except through the ledger.
import { eq } from 'drizzle-orm';
import { type Profile, SIGNUP_TOKENS } from '../../contract/accounts';
import type { AppDb } from '../db/client';
import { profiles, user } from '../db/schema';
import { applyLedgerEntry } from '../ledger/ledger';

/**
 * Creates the profile with its signup tokens, once. Safe to call again (a retry, a race, a lazy
 * read): the profile insert and the ledger's (signup, user id) row are both idempotent. The sign-up
 * hook gives no bonus to an email whose account was deleted before (deleted-emails.ts).
 */
export async function ensureProfile(db: AppDb, userId: string, options: { signupBonus?: boolean } = {}): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(profiles).values({ userId, tokens: 0 }).onConflictDoNothing();
    if (options.signupBonus === false) return;
    await applyLedgerEntry(tx, { userId, delta: SIGNUP_TOKENS, reason: 'signup', reference: userId });
  });
}

/** The columns of a Profile (jobs/request/tool-call-limit.ts reads the same with a tool call's count, written out). */
export const PROFILE_FIELDS = {
  email: user.email,
  emailVerified: user.emailVerified,
  tokens: profiles.tokens,
  isDispute: profiles.isDispute,
  isFraudulent: profiles.isFraudulent,
  stripeCustomerId: profiles.stripeCustomerId,
};

/** A profile's row with the bytes its files take (profiles.storage_used, kept by triggers on files). */
async function profileRow(db: AppDb, userId: string) {
  const [row] = await db
    .select({ ...PROFILE_FIELDS, storageUsed: profiles.storageUsed })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(eq(profiles.userId, userId));
  return row ?? null;
}

/** The profile of a signed-in user, created on the spot if its creation at sign-up failed. */
export async function readOrCreateProfile(db: AppDb, userId: string): Promise<Profile | null> {
  const withStorage = await readOrCreateProfileWithStorage(db, userId);
  if (!withStorage) return null;
  const { storageUsedBytes: _, ...profile } = withStorage;
  return profile;
}

export type ProfileWithStorage = Profile & { storageUsedBytes: number };

/** A profile with the bytes its files take (profiles.storage_used: a bigint, which some drivers answer as a string). */
export const withStorageUsed = (profile: Profile, storageUsed: string | number | null): ProfileWithStorage => ({
  ...profile,
  storageUsedBytes: Number(storageUsed ?? 0),
});

/**
 * The profile with the bytes the user's files take, in one statement; created on the spot if its
 * creation at sign-up failed. A tool call reads both in its rate-limit statement
 * (jobs/request/tool-call-limit.ts) and comes here only for a user without a profile row.
 */
export async function readOrCreateProfileWithStorage(db: AppDb, userId: string): Promise<ProfileWithStorage | null> {
  let row = await profileRow(db, userId);
  if (!row) {
    await ensureProfile(db, userId);
    row = await profileRow(db, userId);
  }
  if (!row) return null;
  const { storageUsed, ...profile } = row;
  return withStorageUsed(profile, storageUsed);
}
