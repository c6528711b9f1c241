// The spec's user profile, owned by the server: created with the signup bonus, read for the
// session user only. Nothing here changes tokens except through the ledger. Below accounts/ and
// billing/ alike: the account's pages, setup and deletion and the payments all read it.
import { eq } from 'drizzle-orm';
import { type Profile, SIGNUP_TOKENS } from '../../contract/accounts';
import type { AppDb } from '../db/client';
import { profiles, user } from '../db/schema';
import { applyLedgerEntry } from '../ledger/ledger';

/** The address a deleted account's user row keeps (accounts/account-deletion.ts anonymises it so). */
export const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * Creates the profile with its signup tokens, once. Safe to call again (a retry, a race, a lazy
 * read): the profile insert and the ledger's (signup, user id) row are both idempotent. The sign-up
 * hook gives no bonus to an email whose account was deleted before (deleted-emails.ts).
 */
export async function ensureProfile(
  db: AppDb,
  userId: string,
  options: { signupBonus?: boolean } = {},
): Promise<number> {
  // The tokens this call credited: the bonus the first time, 0 after (the caller counts them in metrics).
  return db.transaction(async (tx) => {
    await tx.insert(profiles).values({ userId, tokens: 0 }).onConflictDoNothing();
    if (options.signupBonus === false) return 0;
    const bonus = await applyLedgerEntry(tx, { userId, delta: SIGNUP_TOKENS, reason: 'signup', reference: userId });
    return bonus.applied ? SIGNUP_TOKENS : 0;
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

/** Told of a signup bonus a lazy read credited (observability/metrics.ts's Metrics is one). */
export type SignupBonusCounter = { tokens(movement: 'granted', amount: number): void };

/** The profile of a signed-in user, created on the spot if its creation at sign-up failed. */
export async function readOrCreateProfile(
  db: AppDb,
  userId: string,
  counter?: SignupBonusCounter,
): Promise<Profile | null> {
  const withStorage = await readOrCreateProfileWithStorage(db, userId, counter);
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
export async function readOrCreateProfileWithStorage(
  db: AppDb,
  userId: string,
  counter?: SignupBonusCounter,
): Promise<ProfileWithStorage | null> {
  let row = await profileRow(db, userId);
  if (!row) {
    // Made first: `counter?.tokens(..., await ...)` would skip the making when there is no counter.
    const granted = await ensureProfile(db, userId);
    counter?.tokens('granted', granted);
    row = await profileRow(db, userId);
  }
  if (!row) return null;
  const { storageUsed, ...profile } = row;
  return withStorageUsed(profile, storageUsed);
}
