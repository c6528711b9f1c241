// The SQL of webhook deliveries (decision 059): a row per job whose call carried a webhook, written
// by the charge (jobs/request/charge.ts), claimed here by one worker at a time once its job has
// ended, and given its outcome by the run that still holds it.
import { eq, sql } from 'drizzle-orm';
import type { WebhookDelivery } from '../../../contract/webhooks';
import type { AppDb } from '../../db/client';
import { RETRY_POLICIES, withBaseSeconds } from '../../db/queue/retry-policies';
import { heldBy as claimHolds, claimNext, isLastAttempt, type RowQueue, retryLater } from '../../db/queue/row-queue';
import { jobs, webhookDeliveries } from '../../db/schema';

/**
 * The deliveries, a row queue (db/queue/row-queue.ts): a claimed delivery stays `pending`, held for
 * 60 s (above the 10 s try: past it, the worker died mid-try, it is due again); it retries as
 * RETRY_POLICIES.webhookDelivery says, from the base WEBHOOK_RETRY_BASE_SECONDS when set: 10 s, 30 s,
 * 1.5 min ... 18 h, about 27 hours from the first try to the last.
 */
const deliveryQueue: RowQueue = {
  table: webhookDeliveries,
  key: webhookDeliveries.jobId,
  attempts: webhookDeliveries.attempts,
  dueAt: webhookDeliveries.nextAttemptAt,
  order: [webhookDeliveries.nextAttemptAt],
  policy: RETRY_POLICIES.webhookDelivery,
  status: { column: webhookDeliveries.status, waiting: 'pending' },
  holdSeconds: 60,
};

/** Tries a delivery gets at most: the first and 9 retries. */
export const WEBHOOK_TRIES = deliveryQueue.policy.maxAttempts;

type Rows<T> = { rows: T[] };

export type ClaimedDelivery = { jobId: string; attempt: number; userId: string };

/** The delivery is still held by `claim`: pending, and not claimed again since. */
const heldBy = (claim: ClaimedDelivery) => claimHolds(deliveryQueue, { key: claim.jobId, attempt: claim.attempt });

/**
 * Claims the next due delivery in one statement: pending, past its next attempt time, with tries
 * left, and of a job that has ended (succeeded, or failed and refunded). Attempts + 1 and held for
 * 60 s; the row queue's claim, so two workers never take one delivery at once. A delivery
 * whose last try was interrupted (its claim lapsed with no tries left) is marked failed on the way.
 * `skipAccounts`: accounts whose share of the caller's tries is taken (issue 53): their deliveries
 * wait, so another account's due delivery is claimed before them however many they have.
 */
export async function claimNextDelivery(
  db: AppDb,
  { skipAccounts = [] }: { skipAccounts?: readonly string[] } = {},
): Promise<ClaimedDelivery | null> {
  const notSkipped = skipAccounts.length
    ? sql` and j.user_id not in (${sql.join(
        skipAccounts.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const claim = await claimNext(db, deliveryQueue, {
    before: sql`interrupted as (
      update webhook_deliveries set status = 'failed',
        last_error = coalesce(last_error, 'The last try was interrupted before it ended.')
      where status = 'pending' and attempts >= ${WEBHOOK_TRIES} and next_attempt_at <= now())`,
    // Due once its job has ended.
    join: (row) => sql`join ${jobs} j on j.id = ${row(webhookDeliveries.jobId)}`,
    where: () => sql`j.status in ('succeeded', 'failed')${notSkipped}`,
    select: sql`(select j.user_id from ${jobs} j where j.id = claimed.job_id) as user_id`,
  });
  return claim ? { jobId: claim.key, attempt: claim.attempt, userId: String(claim.row.user_id) } : null;
}

/**
 * Hands a claimed delivery back untried (its host is backing off, issue 53): the claim's attempt
 * is not counted, and it is due again at `until`.
 */
export async function deferDelivery(db: AppDb, claim: ClaimedDelivery, until: Date): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set attempts = attempts - 1, next_attempt_at = ${until.toISOString()}::timestamptz
    where ${heldBy(claim)}`);
}

/** Why a delivery was given up on before its last try: its host failed that many tries in a row. */
export const givenUpError = (host: string, failures: number) =>
  `Given up: ${host} failed ${failures} tries in a row, so no more are made.`;

/**
 * Fails a claimed delivery for good because its host keeps failing (issue 53), whatever tries it
 * has left. `tried`: the claim's try was made (it failed); otherwise it is not counted.
 */
export async function giveUpDelivery(
  db: AppDb,
  claim: ClaimedDelivery,
  { error, tried, status }: { error: string; tried: boolean; status?: number },
): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set status = 'failed', last_error = ${error}, next_attempt_at = now(),
      ${tried ? sql`last_status = ${status ?? null}::int` : sql`attempts = attempts - 1`}
    where ${heldBy(claim)}`);
}

export type TryOutcome = { delivered: true; status: number } | { delivered: false; status?: number; error: string };

/**
 * Records a try's outcome, only while `claim` still holds the delivery: a 2xx delivers it; a failure
 * makes it due again after the backoff, or failed after the last try. Answers the status it is left in.
 */
export async function recordTry(
  db: AppDb,
  claim: ClaimedDelivery,
  outcome: TryOutcome,
  /** WEBHOOK_RETRY_BASE_SECONDS; unset: the retry policy's. */
  retryBaseSeconds: number | undefined,
): Promise<'delivered' | 'pending' | 'failed' | null> {
  const held = heldBy(claim);
  if (outcome.delivered) {
    const { rows } = (await db.execute(sql`
      update webhook_deliveries set status = 'delivered', last_status = ${outcome.status}, last_error = null,
        delivered_at = now()
      where ${held} returning status`)) as Rows<{ status: 'delivered' }>;
    return rows[0]?.status ?? null;
  }
  const outcomeColumns = [
    [webhookDeliveries.lastStatus, sql`${outcome.status ?? null}::int`],
    [webhookDeliveries.lastError, sql`${outcome.error}`],
  ] as const;
  if (!isLastAttempt(deliveryQueue.policy, claim.attempt)) {
    const policy = withBaseSeconds(deliveryQueue.policy, retryBaseSeconds);
    const retried = await retryLater(
      db,
      deliveryQueue,
      { key: claim.jobId, attempt: claim.attempt },
      { policy, set: outcomeColumns },
    );
    return retried ? 'pending' : null;
  }
  const { rows } = (await db.execute(sql`
    update webhook_deliveries set status = 'failed', last_status = ${outcome.status ?? null}::int,
      last_error = ${outcome.error}, next_attempt_at = now()
    where ${held} returning status`)) as Rows<{ status: 'failed' }>;
  return rows[0]?.status ?? null;
}

/** The job's delivery as GET /api/jobs/:id shows it, or null (no webhook). */
export async function deliveryOf(db: AppDb, jobId: string, url: string): Promise<WebhookDelivery | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId));
  if (!row) return null;
  return {
    url,
    status: row.status,
    attempts: row.attempts,
    ...(row.lastStatus !== null ? { lastStatus: row.lastStatus } : {}),
    ...(row.lastError !== null ? { lastError: row.lastError } : {}),
    ...(row.deliveredAt ? { deliveredAt: row.deliveredAt.toISOString() } : {}),
  };
}
