// DELETE /api/account (issue 17, decision 022): the user's files, jobs, sign-in methods, sessions and
// personal data go; the user row stays, anonymised, so the ledger keeps its rows (the accounts'
// history must still add up) without naming anyone. With no account row left, nobody can sign in.
import { and, eq, isNull, or } from 'drizzle-orm';
import { thumbnailKey } from '../creations/thumbnails';
import type { AppDb } from '../db/client';
import { account, files, jobs, mailOutbox, profiles, session, user, verification } from '../db/schema';
import { removeFiles } from '../jobs/job-files';
import type { FileStorage } from '../storage/storage';

/** How recent a sign-in must be to delete the account: proof that the person at the keyboard is the owner. */
export const FRESH_SESSION_MS = 10 * 60 * 1000;

export const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

export async function deleteAccount(db: AppDb, storage: FileStorage, userId: string): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const [current] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!current) return [];
    const own = await tx.select().from(files).where(eq(files.userId, userId));
    await tx.delete(jobs).where(eq(jobs.userId, userId)); // and their files, by cascade
    await tx.delete(files).where(and(eq(files.userId, userId), isNull(files.jobId)));
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    await tx.delete(verification).where(or(eq(verification.identifier, current.email), eq(verification.value, userId)));
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, current.email));
    await tx.update(profiles).set({ stripeCustomerId: null }).where(eq(profiles.userId, userId));
    await tx
      .update(user)
      .set({ name: 'Deleted user', email: deletedEmail(userId), emailVerified: false, image: null })
      .where(eq(user.id, userId));
    return own;
  });
  await removeFiles(storage, [...removed, ...removed.map((f) => ({ storageKey: thumbnailKey(f.id) }))]);
}
