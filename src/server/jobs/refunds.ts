// Refunds: every token a tool job gives back passes here, and no other module writes a refund.
// Each is a ledger row (reason `refund`) with the balance changed in the same transaction as the
// job's finish; the ledger's unique (reason, reference) makes each happen at most once. The kinds:
// - failed (failAndRefund): all the job was charged, reference the job id. A provider's error or
//   an unusable answer (worker/job-runner.ts), a run out of tries, from the worker's loop or handed
//   back by the orphan sweep on its last try (tryAgainOrRefund), a pending job given up at its time
//   limit and canceled at its provider (worker/pending-jobs.ts, through completeToolJob).
// - succeeded for less (refundOnSuccess, applied by succeedAndRefund): the provider that served it
//   asks less than the job was charged (the routing changed between queueing and running: all of it
//   when a free preview served a paid job), reference the job id; or a per-image tool got fewer
//   images than it paid for (a model's safety filter may drop some), the missing ones, reference
//   `partial:<job>`.
// - by support (refundEndedJob): the console's refund of a job that has ended, what it was charged
//   less what it got back already, once, reference `support:<job>` (issue 57).
// Never refunded: a free preview (charged 0: nothing to give back, pricing/prices.ts); a job tried
// again (its charge carries over to the next try); a job deleted with its account (the ledger stays
// as deletion leaves it, accounts/account-deletion.ts, and its run stops without finishing it).
import { and, eq, inArray } from 'drizzle-orm';
import { type ToolId, toolById } from '../../contract/tools';
import type { AppDb } from '../db/client';
import { jobs, ledger } from '../db/schema';
import type { ToolResult } from '../inference/provider';
import { applyLedgerEntry, type DbOrTx, type LedgerEntry } from '../ledger/ledger';
import { priceOf } from '../pricing/prices';
import type { FinishedJob } from './queue/job-signals';
import { type JobRow, type JobRun, markFailed } from './queue/jobs-repository';
import { imagesAsked } from './stored-input';

/**
 * Marks a job failed and refunds what it was charged, once: a job already final (or taken from
 * `run`) is left as it is (null). Answers the failed job and its owner's balance after the refund.
 */
export async function failAndRefund(
  db: AppDb,
  jobId: string,
  message: string,
  run: JobRun = null,
): Promise<FinishedJob | null> {
  return db.transaction(async (tx) => {
    const failed = await markFailed(tx, jobId, message, run);
    if (!failed) return null;
    const { job } = failed;
    if (job.charged === 0) return failed;
    const refund = { userId: job.userId, delta: job.charged, reason: 'refund' as const, reference: jobId };
    return { job, balance: (await applyLedgerEntry(tx, refund)).balance };
  });
}

/** What a succeeding job gives back (refundOnSuccess), for succeedAndRefund. */
export type SuccessRefund = LedgerEntry & { reason: 'refund' };

/**
 * What a success gives back: what the provider that served it asks less than the job was charged
 * (all of it for a paid job a free preview served), else the missing ones when a per-image tool got
 * fewer images than paid for; null: nothing (the common case, which finishes in one statement).
 */
export function refundOnSuccess(
  job: JobRow,
  result: Exclude<ToolResult, { kind: 'pending' }>,
  servedBy: string,
): SuccessRefund | null {
  if (job.charged === 0) return null;
  const tool = job.tool as ToolId;
  const asked = imagesAsked(job.input);
  const perImage = toolById(tool).costPer === 'image';
  const owed = priceOf(tool, servedBy, perImage ? asked : 1).charged;
  if (owed < job.charged) {
    return {
      userId: job.userId,
      delta: job.charged - owed,
      reason: 'refund',
      reference: job.id,
      note: owed === 0 ? `served by ${servedBy}: a free preview` : `served by ${servedBy} for ${owed} tokens`,
    };
  }
  if (result.kind !== 'images' || !perImage || result.images.length >= asked) return null;
  const missing = asked - result.images.length;
  return {
    userId: job.userId,
    delta: (job.charged / asked) * missing,
    reason: 'refund',
    reference: `partial:${job.id}`,
    note: `${missing} of ${asked} images not delivered`,
  };
}

/**
 * Finishes a job (`markSucceeded`, given the transaction) and applies its refund in the same
 * transaction: nothing is refunded when someone else finished it first (a duplicate delivery, the
 * webhook racing the backstop). Answers the finish with the owner's balance after the refund.
 */
export async function succeedAndRefund<Finished extends { balance: number }>(
  db: AppDb,
  refund: SuccessRefund,
  markSucceeded: (tx: DbOrTx) => Promise<Finished | null>,
): Promise<Finished | null> {
  return db.transaction(async (tx) => {
    const finished = await markSucceeded(tx);
    return finished && { ...finished, balance: (await applyLedgerEntry(tx, refund)).balance };
  });
}

/** Why support cannot refund a job (refundEndedJob). */
export type SupportRefundRefusal = 'not-found' | 'not-ended' | 'not-charged' | 'already-refunded';

/**
 * Support's refund of a job (issue 57): all it was charged less what it has been given back already
 * (a partial refund, a provider that asked less), once per job (reference `support:<job>`). Only a
 * job that has ended: one queued or running is refunded by itself if it fails, and the job's row is
 * locked here, so it cannot end (and be refunded) meanwhile. Runs in the caller's transaction.
 */
export async function refundEndedJob(
  tx: DbOrTx,
  jobId: string,
  note: string,
): Promise<{ userId: string; charged: number; refunded: number; balance: number } | SupportRefundRefusal> {
  const [job] = await tx
    .select({ userId: jobs.userId, status: jobs.status, charged: jobs.charged })
    .from(jobs)
    .where(eq(jobs.id, jobId))
    .for('update');
  if (!job) return 'not-found';
  if (job.status === 'queued' || job.status === 'running') return 'not-ended';
  if (job.charged === 0) return 'not-charged';
  const [given] = await refundedFor(tx, job.userId, [jobId]);
  const owed = job.charged - (given?.refunded ?? 0);
  if (owed <= 0) return 'already-refunded';
  const refund = await applyLedgerEntry(tx, {
    userId: job.userId,
    delta: owed,
    reason: 'refund',
    reference: `support:${jobId}`,
    note,
  });
  if (!refund.applied) return 'already-refunded';
  return { userId: job.userId, charged: job.charged, refunded: owed, balance: refund.balance };
}

/** The tokens each of `userId`'s jobs has been given back, by every kind of refund above. */
export async function refundedFor(
  db: DbOrTx,
  userId: string,
  jobIds: readonly string[],
): Promise<{ jobId: string; refunded: number }[]> {
  if (jobIds.length === 0) return [];
  const references = jobIds.flatMap((id) => [id, `partial:${id}`, `support:${id}`]);
  const rows = await db
    .select({ reference: ledger.reference, delta: ledger.delta })
    .from(ledger)
    .where(and(eq(ledger.userId, userId), eq(ledger.reason, 'refund'), inArray(ledger.reference, references)));
  const jobOf = (reference: string) => reference.replace(/^(partial|support):/, '');
  return jobIds.map((jobId) => ({
    jobId,
    refunded: rows.filter((row) => jobOf(row.reference) === jobId).reduce((sum, row) => sum + row.delta, 0),
  }));
}
