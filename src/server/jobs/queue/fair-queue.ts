// Fair scheduling between users (docs/decisions/013-fair-queue.md): one user's pile of jobs must not
// make everyone else wait. Each user may have at most MAX_ACTIVE_JOBS_PER_USER jobs queued or
// running, and the queue serves jobs in round-robin rounds: a user's next job goes into the round
// being served or, if they already have a job there or later, the round after their last one. So
// each user's first waiting job runs before anyone's second. The tool-run queue (the `jobs` table,
// decision 037) takes the earliest round first, then the oldest. A job's round is given in the
// charge's statement (request/charge.ts); here: the cap's count and the line's order.
import { type SQL, sql } from 'drizzle-orm';
import type { SqlRows } from '../../db/client';
import { jobs } from '../../db/schema';
import type { DbOrTx } from '../../ledger/ledger';

export class TooManyJobsError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} jobs in progress per user`);
    this.name = 'TooManyJobsError';
  }
}

/**
 * What a cap counts: a user's single calls, or their batch images (decision 062: a batch has a cap of
 * its own, so a batch of 50 is not refused by the cap of 10 single calls, nor does it use that up).
 */
export type JobKind = 'single' | 'batch';

/** How many of the user's jobs of `kind` are queued or running (a scalar subquery; read from jobs_user_active_idx). */
export const activeJobsOf = (userId: string, kind: JobKind = 'single') =>
  sql`(select count(*) from ${jobs} where ${jobs.userId} = ${userId} and ${jobs.status} in ('queued', 'running') and ${jobs.batchId} ${kind === 'batch' ? sql`is not null` : sql`is null`})`;

async function firstRow(db: DbOrTx, query: SQL): Promise<Record<string, unknown>> {
  const result = (await db.execute(query)) as unknown as SqlRows;
  return result.rows[0] ?? {};
}

/** Whether the user has fewer than `maxActiveJobs` jobs of `kind` queued or running. */
export async function hasRoomForJob(
  db: DbOrTx,
  userId: string,
  maxActiveJobs: number,
  kind: JobKind = 'single',
): Promise<boolean> {
  const { active } = await firstRow(db, sql`select ${activeJobsOf(userId, kind)} as active`);
  return Number(active ?? 0) < maxActiveJobs;
}

/**
 * Jobs the queue takes before job `jobId`: an earlier round, or the same round and created before it
 * (the take's order: round, then created_at, then id: jobs-repository.ts takeAndClaim).
 */
export function servedBefore(jobId: string): SQL {
  return sql`(${jobs.queueRound}, ${jobs.createdAt}, ${jobs.id}) < (select j.queue_round, j.created_at, j.id from ${jobs} j where j.id = ${jobId})`;
}
