// DELETE /api/account (issue 17, decision 022): the user's files, jobs (with their webhook deliveries),
// sign-in methods, sessions, API keys, webhook signing secret and personal data go; the user row stays, anonymised, so the ledger keeps its rows (the accounts'
// history must still add up) without naming anyone. With no account row left, nobody can sign in.
import { and, eq, isNull, or } from 'drizzle-orm';
import { thumbnailKey } from '../creations/thumbnails';
import type { AppDb } from '../db/client';
import {
  account,
  apiKeys,
  files,
  jobs,
  mailOutbox,
  profiles,
  session,
  user,
  verification,
  webhookSecrets,
} from '../db/schema';
import { removeFiles } from '../jobs/job-files';
import { deletedEmail } from '../profiles/profiles';
import type { FileStorage } from '../storage/storage';

/**
 * Answers the ids of the jobs deleted unfinished (queued or running): the caller stops their runs and
 * wakes their waiters (JobSignals.jobsDeleted). A running job's charge stays in the ledger, unrefunded,
 * like every other row of it.
 */
export async function deleteAccount(db: AppDb, storage: FileStorage, userId: string): Promise<string[]> {
  const { removed, unfinished } = await db.transaction(async (tx) => {
    const [current] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!current) return { removed: [], unfinished: [] };
    const own = await tx.select().from(files).where(eq(files.userId, userId));
    const deletedJobs = await tx
      .delete(jobs) // and their files, by cascade
      .where(eq(jobs.userId, userId))
      .returning({ id: jobs.id, status: jobs.status });
    await tx.delete(files).where(and(eq(files.userId, userId), isNull(files.jobId)));
    await tx.delete(session).where(eq(session.userId, userId));
    // A key signs in as much as a session does (issue 53: one kept reading the anonymised profile).
    await tx.delete(apiKeys).where(eq(apiKeys.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    await tx.delete(verification).where(or(eq(verification.identifier, current.email), eq(verification.value, userId)));
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, current.email));
    // The webhook signing secret (the jobs' deliveries went with the jobs).
    await tx.delete(webhookSecrets).where(eq(webhookSecrets.userId, userId));
    await tx.update(profiles).set({ stripeCustomerId: null }).where(eq(profiles.userId, userId));
    await tx
      .update(user)
      .set({ name: 'Deleted user', email: deletedEmail(userId), emailVerified: false, image: null })
      .where(eq(user.id, userId));
    const unfinished = deletedJobs.filter((j) => j.status === 'queued' || j.status === 'running').map((j) => j.id);
    return { removed: own, unfinished };
  });
  await removeFiles(storage, [...removed, ...removed.map((f) => ({ storageKey: thumbnailKey(f.id) }))]);
  return unfinished;
}
