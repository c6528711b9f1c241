// The SQL of webhook deliveries (decision 059): a row per job whose call carried a webhook, written
// by the charge (jobs/request/charge.ts), claimed here by one worker at a time once its job has
// ended, and given its outcome by the run that still holds it.
import { eq, sql } from 'drizzle-orm';
import type { WebhookDelivery } from '../../../contract/webhooks';
import type { AppDb } from '../../db/client';
import { webhookDeliveries } from '../../db/schema';

/** Tries a delivery gets at most: the first and 9 retries. */
export const WEBHOOK_TRIES = 10;
/**
 * Each retry waits three times the one before, from the base (WEBHOOK_RETRY_BASE_SECONDS, 10 s):
 * 10 s, 30 s, 1.5 min ... 18 h, about 27 hours from the first try to the last.
 */
export const WEBHOOK_BACKOFF_FACTOR = 3;
/** A claim is held this long: past it (the worker died mid-try) the delivery is due again. Above the 10 s try. */
const CLAIM_SECONDS = 60;

type Rows<T> = { rows: T[] };

export type ClaimedDelivery = { jobId: string; attempt: number; userId: string };

/** The delivery is still held by `claim`: pending, and not claimed again since. */
const heldBy = (claim: ClaimedDelivery) =>
  sql`job_id = ${claim.jobId} and attempts = ${claim.attempt} and status = 'pending'`;

/**
 * Claims the next due delivery in one statement: pending, past its next attempt time, with tries
 * left, and of a job that has ended (succeeded, or failed and refunded). Attempts + 1 and held for
 * CLAIM_SECONDS; `for update skip locked`, so two workers never take one delivery at once. A delivery
 * whose last try was interrupted (its claim lapsed with no tries left) is marked failed on the way.
 * `skipAccounts`: accounts whose share of the caller's tries is taken (issue 53): their deliveries
 * wait, so another account's due delivery is claimed before them however many they have.
 */
export async function claimNextDelivery(
  db: AppDb,
  { skipAccounts = [] }: { skipAccounts?: readonly string[] } = {},
): Promise<ClaimedDelivery | null> {
  const notSkipped = skipAccounts.length
    ? sql`and j.user_id not in (${sql.join(
        skipAccounts.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const { rows } = (await db.execute(sql`
    with interrupted as (
      update webhook_deliveries set status = 'failed',
        last_error = coalesce(last_error, 'The last try was interrupted before it ended.')
      where status = 'pending' and attempts >= ${WEBHOOK_TRIES} and next_attempt_at <= now()),
    due as (
      select w.job_id, j.user_id from webhook_deliveries w join jobs j on j.id = w.job_id
      where w.status = 'pending' and w.next_attempt_at <= now() and w.attempts < ${WEBHOOK_TRIES}
        and j.status in ('succeeded', 'failed') ${notSkipped}
      order by w.next_attempt_at
      limit 1
      for update of w skip locked)
    update webhook_deliveries d set attempts = d.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${CLAIM_SECONDS})
    from due where d.job_id = due.job_id
    returning d.job_id, d.attempts, due.user_id`)) as Rows<{ job_id: string; attempts: number; user_id: string }>;
  const row = rows[0];
  return row ? { jobId: row.job_id, attempt: Number(row.attempts), userId: row.user_id } : null;
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
  retryBaseSeconds: number,
): Promise<'delivered' | 'pending' | 'failed' | null> {
  const held = heldBy(claim);
  if (outcome.delivered) {
    const { rows } = (await db.execute(sql`
      update webhook_deliveries set status = 'delivered', last_status = ${outcome.status}, last_error = null,
        delivered_at = now()
      where ${held} returning status`)) as Rows<{ status: 'delivered' }>;
    return rows[0]?.status ?? null;
  }
  const last = claim.attempt >= WEBHOOK_TRIES;
  const delaySeconds = retryBaseSeconds * WEBHOOK_BACKOFF_FACTOR ** (claim.attempt - 1);
  const { rows } = (await db.execute(sql`
    update webhook_deliveries set status = ${last ? 'failed' : 'pending'}, last_status = ${outcome.status ?? null}::int,
      last_error = ${outcome.error}, next_attempt_at = now() + make_interval(secs => ${delaySeconds}::float8)
    where ${held} returning status`)) as Rows<{ status: 'pending' | 'failed' }>;
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
