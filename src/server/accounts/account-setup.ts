// What follows a new account, outside the request that created it: the profile (already made by
// the sign-up hook; made here if that failed), the payment customer, and the first verification
// mail. It runs as a queued job so that a failing mail server or payment provider loses nothing:
// pg-boss retries it with backoff, and each step is skipped once done.
import { eq, isNull } from 'drizzle-orm';
import type { Auth } from '../auth/auth';
import { ensureCustomer } from '../billing/customers';
import type { PaymentProvider } from '../billing/payment-provider';
import type { AppDb } from '../db/client';
import { profiles, user } from '../db/schema';
import { QUEUE_NAMES, type Queue } from '../jobs/queue';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { deletedEmail } from './account-deletion';
import { sendVerificationMail } from './verification-mail';

export type AccountSetupDeps = {
  db: AppDb;
  auth: Auth;
  mailer: Mailer;
  payments: PaymentProvider;
  logger: Logger;
};

type AccountSetupJob = { userId: string };

export async function enqueueAccountSetup(queue: Queue, userId: string): Promise<void> {
  // One pending setup per user: a repeated enqueue (hook plus sweep) is dropped.
  await queue.send(QUEUE_NAMES.accountSetup, { userId } satisfies AccountSetupJob, { singletonKey: userId });
}

export async function runAccountSetup(deps: AccountSetupDeps, userId: string): Promise<void> {
  const { db } = deps;
  const [account] = await db
    .select({ id: user.id, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, userId));
  // Deleted since (the row stays anonymised): no customer is made again for it.
  if (!account || account.email === deletedEmail(account.id)) return;
  // The profile too, if the sign-up hook failed to make it.
  await ensureCustomer(db, deps.payments, account);

  if (!account.emailVerified) {
    await sendVerificationMail(deps, account, { onlyIfNeverSent: true });
  }
}

export async function registerAccountSetupWorker(queue: Queue, deps: AccountSetupDeps, pollingIntervalSeconds: number) {
  await queue.work<AccountSetupJob>(QUEUE_NAMES.accountSetup, { pollingIntervalSeconds }, async ([job]) => {
    if (!job) return;
    try {
      await runAccountSetup(deps, job.data.userId);
    } catch (error) {
      deps.logger.error('account setup failed; it will be retried', { userId: job.data.userId, error });
      throw error;
    }
  });
}

/** At worker start: accounts whose setup never finished (for example, the enqueue failed) get it again. */
export async function enqueueUnfinishedAccountSetups(db: AppDb, queue: Queue): Promise<number> {
  const unfinished = await db
    .select({ userId: profiles.userId })
    .from(profiles)
    .where(isNull(profiles.stripeCustomerId))
    .limit(500);
  for (const { userId } of unfinished) await enqueueAccountSetup(queue, userId);
  return unfinished.length;
}
