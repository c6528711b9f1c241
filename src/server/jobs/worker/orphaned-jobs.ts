// Jobs caught by a crash: a tool job running on a worker whose lease has lapsed or is gone
// (worker-leases.ts) would otherwise sit `running`, its tokens held. Each worker looks for such jobs
// when it starts and every few seconds, and hands them back: the row is `queued` again, due at once
// (the user has waited a lease already), or, out of tries, failed and refunded. A job running past
// its expiry (TOOL_JOB_EXPIRE_SECONDS, the longest a provider call may take; a worker that hangs)
// is handed back the same way, as pg-boss's expiry did before decision 037. Handing back is one
// statement guarded by the row's state and attempt, so of several workers sweeping one wins.
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { leaseLapsed } from '../../db/queue/row-queue';
import { jobs } from '../../db/schema';
import { type JobCompletionDeps, tryAgainOrRefund } from './job-runner';
import { forgetLongGoneLeases, type WorkerLease } from './worker-leases';

export type OrphanedJobDeps = Pick<JobCompletionDeps, 'db' | 'logger' | 'signals' | 'metrics'>;

/** At most this many jobs a round; the rest wait for the next. */
const BATCH = 100;

/** One sweep. Returns the jobs handed back. */
export async function handBackOrphanedJobs(deps: OrphanedJobDeps, settings: OrphanSweepSettings): Promise<number> {
  const { db, logger } = deps;
  const orphans = await db
    .select({ id: jobs.id, tool: jobs.tool, attempts: jobs.attempts, workerId: jobs.workerId })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, 'running'),
        // A job with its provider (webhook mode) needs no worker: pending-jobs.ts watches it.
        isNull(jobs.providerRef),
        or(
          and(isNotNull(jobs.workerId), leaseLapsed(sql`${jobs.workerId}`, settings.leaseSeconds)),
          lt(jobs.startedAt, sql`now() - make_interval(secs => ${settings.expireSeconds})`),
        ),
      ),
    )
    .orderBy(asc(jobs.startedAt))
    .limit(BATCH);
  let handedBack = 0;
  for (const orphan of orphans) {
    try {
      const outcome = await tryAgainOrRefund(deps, orphan, 'now');
      if (!outcome) continue; // finished, or claimed again, since the sweep read it
      handedBack++;
      logger.warn('job of a worker that is gone handed back', { jobId: orphan.id, workerId: orphan.workerId, outcome });
    } catch (error) {
      logger.error('could not hand back the job of a worker that is gone', { jobId: orphan.id, error });
    }
  }
  await forgetLongGoneLeases(db);
  return handedBack;
}

export type OrphanSweepSettings = {
  leaseSeconds: number;
  /** A job running longer than this is handed back even though its worker lives (TOOL_JOB_EXPIRE_SECONDS). */
  expireSeconds: number;
};

/** Sweeps now and then every sixth of a lease period; the returned function stops it (and awaits a round). */
export function startOrphanedJobSweep(
  deps: OrphanedJobDeps,
  lease: WorkerLease,
  settings: OrphanSweepSettings,
): () => Promise<void> {
  let round: Promise<unknown> | null = null;
  const sweep = () => {
    if (round || !lease.canJudgeOthers()) return;
    round = handBackOrphanedJobs(deps, settings)
      .catch((error) => deps.logger.error('orphaned job sweep failed', { error }))
      .finally(() => {
        round = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, (settings.leaseSeconds * 1000) / 6);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
