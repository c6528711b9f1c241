// What follows a new account, outside the request that created it: the profile (already made by
// the sign-up hook; made here if that failed), the payment customer, and the first verification
// mail. It waits as a row in `account_setups` (decision 045) so that a failing mail server or
// payment provider, or a worker that dies, loses nothing: a worker retries it with backoff, and
// each step is skipped once done (both claim their work in the database: a second run makes no
// second customer and sends no second mail).
import { eq, sql } from 'drizzle-orm';
import type { Auth } from '../auth/auth';
import { ensureCustomer } from '../billing/customers';
import type { PaymentProvider } from '../billing/payment-provider';
import type { AppDb } from '../db/client';
import { RETRY_POLICIES } from '../db/queue/retry-policies';
import { claimNext, isLastAttempt, type RowQueue, retryLater } from '../db/queue/row-queue';
import { accountSetups, user } from '../db/schema';
import type { Logger } from '../log';
import { waitAtMost, wakeableSleep } from '../loops/loop-timing';
import type { Mailer } from '../mail/mailer';
import { deletedEmail } from '../profiles/profiles';
import { sendVerificationMail } from './verification-mail';

export type AccountSetupDeps = {
  db: AppDb;
  auth: Auth;
  mailer: Mailer;
  payments: PaymentProvider;
  logger: Logger;
};

/**
 * The setups waiting, a row queue (db/queue/row-queue.ts): a claimed setup stays in the table, held
 * for its worker until the expiry (15 minutes: a hung provider call) or until its worker's lease
 * lapses; it retries as RETRY_POLICIES.accountSetup says (5 s x 2^n, 11 tries).
 */
const setupQueue: RowQueue = {
  table: accountSetups,
  key: accountSetups.userId,
  attempts: accountSetups.attempts,
  dueAt: accountSetups.runAfter,
  order: [accountSetups.runAfter],
  policy: RETRY_POLICIES.accountSetup,
  workerId: accountSetups.workerId,
  holdSeconds: 15 * 60,
};

/** Runs a setup gets at most: the first and 10 retries (pg-boss's retryLimit 10 before decision 045). */
export const ACCOUNT_SETUP_TRIES = setupQueue.policy.maxAttempts;
/** How long a stop waits for the setup in hand before leaving it to the next worker. */
const STOP_WAIT_MS = 10_000;

type Rows<T> = { rows: T[] };

/** Queues the account's setup (once: a setup already waiting for it stays as it is). */
export async function enqueueAccountSetup(db: AppDb, userId: string): Promise<void> {
  await db.insert(accountSetups).values({ userId }).onConflictDoNothing();
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

type ClaimedSetup = { userId: string; attempt: number };

/**
 * Claims the next due setup for the worker `workerId` in one statement: attempts + 1, its lease, and
 * due again after the expiry. Due = waiting past its `run_after`, or claimed by a worker whose lease
 * has lapsed or is gone (it died mid-run), or claimed longer ago than the expiry.
 */
export async function claimNextAccountSetup(
  db: AppDb,
  workerId: string,
  leaseSeconds: number,
): Promise<ClaimedSetup | null> {
  const claim = await claimNext(db, setupQueue, { workerId, leaseSeconds });
  return claim ? { userId: claim.key, attempt: claim.attempt } : null;
}

/** Runs a claimed setup: done, its row goes; failed, it is due again after the backoff (unless out of tries). */
async function runClaimed(deps: AccountSetupDeps, { userId, attempt }: ClaimedSetup): Promise<void> {
  const { db } = deps;
  try {
    await runAccountSetup(deps, userId);
  } catch (error) {
    const lastTry = isLastAttempt(setupQueue.policy, attempt);
    if (lastTry) deps.logger.error('account setup failed on its last try; it is not retried', { userId, error });
    else deps.logger.error('account setup failed; it will be retried', { userId, attempt, error });
    const message = error instanceof Error ? error.message : String(error);
    // Only if this run still holds it (a later claim, after this worker's lease lapsed, owns it then).
    await retryLater(db, setupQueue, { key: userId, attempt }, { set: [[accountSetups.lastError, sql`${message}`]] });
    return;
  }
  // Done, whichever run holds it now.
  await db.delete(accountSetups).where(eq(accountSetups.userId, userId));
}

export type AccountSetupWorker = {
  /** A setup was queued in this process: look now rather than at the next poll. */
  wake(): void;
  /** Stops taking setups and waits (at most 10 s) for the one in hand. */
  stop(): Promise<void>;
};

/**
 * The worker's loop over `account_setups`: claims and runs one due setup after another, then looks
 * again every `pollingIntervalSeconds` (QUEUE_POLL_SECONDS) or when woken.
 */
export function startAccountSetupWorker(
  deps: AccountSetupDeps,
  lease: { workerId: string; leaseSeconds: number },
  { pollingIntervalSeconds }: { pollingIntervalSeconds: number },
): AccountSetupWorker {
  let stopping = false;
  const pause = wakeableSleep();
  const loop = (async () => {
    while (!stopping) {
      let claimed: ClaimedSetup | null = null;
      try {
        claimed = await claimNextAccountSetup(deps.db, lease.workerId, lease.leaseSeconds);
      } catch (error) {
        deps.logger.error('could not take the next account setup', { error });
      }
      if (!claimed) {
        await pause.sleep(pollingIntervalSeconds * 1000);
        continue;
      }
      try {
        await runClaimed(deps, claimed);
      } catch (error) {
        // Left claimed: due again after the expiry, or as soon as this worker's lease is gone.
        deps.logger.error('could not record an account setup', { userId: claimed.userId, error });
      }
    }
  })();
  return {
    wake: pause.wake,
    async stop() {
      stopping = true;
      pause.wake();
      if (!(await waitAtMost(loop, STOP_WAIT_MS)))
        deps.logger.warn('stopped with an account setup still running; it is retried', {});
    },
  };
}

/**
 * At worker start: accounts whose setup never finished (no payment customer) and is not waiting
 * (the enqueue failed, or it ran out of tries) get it again. Answers how many were queued.
 */
export async function enqueueUnfinishedAccountSetups(db: AppDb): Promise<number> {
  const { rows } = (await db.execute(sql`
    insert into account_setups (user_id)
    select user_id from profiles where stripe_customer_id is null limit 500
    on conflict (user_id) do update set attempts = 0, run_after = now(), worker_id = null, last_error = null
      where account_setups.attempts >= ${ACCOUNT_SETUP_TRIES}
    returning user_id`)) as Rows<{ user_id: string }>;
  return rows.length;
}
