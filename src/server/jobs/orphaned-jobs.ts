// Jobs caught by a crash: a tool job running on a worker whose lease has lapsed or is gone
// (worker-leases.ts) would otherwise sit `running`, its tokens held, until the queue's expiry
// (TOOL_JOB_EXPIRE_SECONDS). Each worker looks for such jobs when it starts and every few seconds,
// and hands them back: the row is `queued` again and the queue's job fails, so the queue's retry
// policy runs it again, or, out of tries, its dead letter refunds it. Handing back is one
// transaction guarded by the row's state and attempt, so of several workers sweeping one wins.
import { and, asc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { type ToolId, toolById } from '../../contract/tools';
import { sqlExecutorOf } from '../db/client';
import { jobs, workerLeases } from '../db/schema';
import { failAndRefund, type JobCompletionDeps } from './job-runner';
import { QUEUE_NAMES, QUEUE_SCHEMA, type Queue } from './queue';
import { forgetLongGoneLeases, type WorkerLease } from './worker-leases';

export type OrphanedJobDeps = Pick<JobCompletionDeps, 'db' | 'logger' | 'signals'> & {
  queue: Pick<Queue, 'fail'>;
};

/** At most this many jobs a round; the rest wait for the next. */
const BATCH = 100;

/** What became of a job handed back: run again by the queue, or refunded (nothing would run it again). */
type HandBack = 'retried' | 'refunded' | null;

/** One sweep. Returns the jobs handed back. */
export async function handBackOrphanedJobs(deps: OrphanedJobDeps, leaseSeconds: number): Promise<number> {
  const { db, logger } = deps;
  const orphans = await db
    .select({ id: jobs.id, tool: jobs.tool, attempts: jobs.attempts, workerId: jobs.workerId })
    .from(jobs)
    .leftJoin(workerLeases, eq(workerLeases.id, jobs.workerId))
    .where(
      and(
        eq(jobs.status, 'running'),
        // A job with its provider (webhook mode) needs no worker: pending-jobs.ts watches it.
        isNull(jobs.providerRef),
        // Jobs claimed before leases existed are left to the queue's expiry.
        isNotNull(jobs.workerId),
        or(isNull(workerLeases.id), lt(workerLeases.heartbeatAt, sql`now() - make_interval(secs => ${leaseSeconds})`)),
      ),
    )
    .orderBy(asc(jobs.startedAt))
    .limit(BATCH);
  let handedBack = 0;
  for (const orphan of orphans) {
    try {
      const outcome = await handBack(deps, orphan);
      if (!outcome) continue;
      handedBack++;
      logger.warn('job of a worker that is gone handed back', { jobId: orphan.id, workerId: orphan.workerId, outcome });
      if (outcome === 'refunded') deps.signals?.jobFinished(orphan.id);
    } catch (error) {
      logger.error('could not hand back the job of a worker that is gone', { jobId: orphan.id, error });
    }
  }
  await forgetLongGoneLeases(db);
  return handedBack;
}

async function handBack(
  deps: OrphanedJobDeps,
  orphan: { id: string; tool: string; attempts: number; workerId: string | null },
): Promise<HandBack> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(jobs)
      .set({ status: 'queued', workerId: null })
      .where(
        and(
          eq(jobs.id, orphan.id),
          eq(jobs.status, 'running'),
          isNull(jobs.providerRef),
          eq(jobs.attempts, orphan.attempts),
        ),
      )
      .returning({ id: jobs.id });
    // Finished, or claimed again, since the sweep read it.
    if (!row) return null;
    const executeSql = sqlExecutorOf(tx);
    // The queue's job has the tool job's id (chargeAndQueue). Locked, so that the queue's own expiry
    // cannot fail it a second time meanwhile.
    const { rows } = await executeSql(`select state from ${QUEUE_SCHEMA}.job where name = $1 and id = $2 for update`, [
      QUEUE_NAMES.toolRun,
      orphan.id,
    ]);
    const state = rows[0]?.state;
    if (state === 'active') {
      // Retried, or, out of tries, sent to the dead letter, which refunds it.
      await deps.queue.fail(QUEUE_NAMES.toolRun, orphan.id, { message: 'worker gone' }, { db: { executeSql } });
    }
    if (state === 'active' || state === 'created' || state === 'retry') {
      // At once: the queue's retry delay is for a busy provider, and the user has waited a lease already.
      await executeSql(
        `update ${QUEUE_SCHEMA}.job set start_after = now() where name = $1 and id = $2 and state = 'retry'`,
        [QUEUE_NAMES.toolRun, orphan.id],
      );
      return 'retried';
    }
    // The queue is done with it (or never had it under this id): nothing will run it again.
    await failAndRefund(tx, orphan.id, toolById(orphan.tool as ToolId).failureMessage);
    return 'refunded';
  });
}

export type OrphanSweepSettings = { leaseSeconds: number };

/** Sweeps now and then every sixth of a lease period; the returned function stops it (and awaits a round). */
export function startOrphanedJobSweep(
  deps: OrphanedJobDeps,
  lease: WorkerLease,
  { leaseSeconds }: OrphanSweepSettings,
): () => Promise<void> {
  let round: Promise<unknown> | null = null;
  const sweep = () => {
    if (round || !lease.canJudgeOthers()) return;
    round = handBackOrphanedJobs(deps, leaseSeconds)
      .catch((error) => deps.logger.error('orphaned job sweep failed', { error }))
      .finally(() => {
        round = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, (leaseSeconds * 1000) / 6);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
