// Fair scheduling between users (docs/decisions/013-fair-queue.md): one user's pile of jobs must not
// make everyone else wait. Each user may have at most MAX_ACTIVE_JOBS_PER_USER jobs queued or
// running, and the queue serves jobs in round-robin rounds: a user's next job goes into the round
// being served or, if they already have a job there or later, the round after their last one. So
// each user's first waiting job runs before anyone's second. pg-boss fetches the highest priority
// first, then the oldest, so a job is sent with priority minus its round.
import { and, count, eq, inArray, max, ne, type SQL, sql } from 'drizzle-orm';
import { jobs, profiles } from '../db/schema';
import type { DbOrTx } from '../ledger/ledger';

export class TooManyJobsError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} jobs in progress per user`);
    this.name = 'TooManyJobsError';
  }
}

/** Whether the user has fewer than `maxActiveJobs` jobs queued or running. */
export async function hasRoomForJob(db: DbOrTx, userId: string, maxActiveJobs: number): Promise<boolean> {
  const [active] = await db
    .select({ jobs: count() })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), inArray(jobs.status, ['queued', 'running'])));
  return Number(active?.jobs ?? 0) < maxActiveJobs;
}

/**
 * Takes a place in the queue inside the transaction that creates the job: locks the user's profile
 * row until commit (so one user's calls pass here one at a time and cannot pass the cap together),
 * throws TooManyJobsError at the cap, and answers the round the new job is served in.
 */
export async function claimQueueRound(tx: DbOrTx, userId: string, maxActiveJobs: number): Promise<number> {
  await tx.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId)).for('update');
  if (!(await hasRoomForJob(tx, userId, maxActiveJobs))) throw new TooManyJobsError(maxActiveJobs);
  // The round being served: the highest of the jobs that have started.
  const [serving] = await tx
    .select({ round: max(jobs.queueRound) })
    .from(jobs)
    .where(ne(jobs.status, 'queued'));
  const [last] = await tx
    .select({ round: max(jobs.queueRound) })
    .from(jobs)
    .where(eq(jobs.userId, userId));
  const servingRound = serving?.round ?? 0;
  return last?.round == null ? servingRound : Math.max(servingRound, last.round + 1);
}

/** pg-boss takes higher priorities first: an earlier round must come first. */
export const queuePriority = (round: number) => -round;

/**
 * Jobs the queue takes before job `jobId`: an earlier round, or the same round and created before it
 * (pg-boss's own order: priority, then created_on, then id, which the job shares with its row).
 */
export function servedBefore(jobId: string): SQL {
  return sql`(${jobs.queueRound}, ${jobs.createdAt}, ${jobs.id}) < (select j.queue_round, j.created_at, j.id from ${jobs} j where j.id = ${jobId})`;
}
