// The backstop for jobs a provider answered `pending` for (Replicate's webhook mode): a webhook may
// be lost, so every minute the worker asks the provider about jobs still running past a grace
// period, completes the finished ones and fails (and refunds) those over their time limit. Every
// worker process does this; completion is idempotent, so two of them racing change nothing.
import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { ToolId } from '../../../contract/tools';
import { jobs, webhookEvents } from '../../db/schema';
import { ProviderError } from '../../inference/provider';
import { completeToolJob, type JobCompletionDeps } from './job-runner';

export type PendingJobSettings = {
  /** Seconds a job waits for its webhook before the provider is asked. */
  graceSeconds: number;
  /** Seconds after which a job still running at its provider is given up: canceled, failed, refunded. */
  expireSeconds: number;
};

const CHECK_INTERVAL_MS = 60_000;
/** At most this many jobs a round; the rest wait for the next minute. */
const BATCH = 100;

const olderThan = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/** One round of the backstop. Returns how many jobs it finished. */
export async function checkPendingJobs(deps: JobCompletionDeps, settings: PendingJobSettings): Promise<number> {
  const { db, logger } = deps;
  const overdue = await db
    .select({
      id: jobs.id,
      tool: jobs.tool,
      provider: jobs.provider,
      ref: jobs.providerRef,
      expired: sql<boolean>`${jobs.startedAt} < ${olderThan(settings.expireSeconds)}`,
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, 'running'),
        isNotNull(jobs.providerRef),
        lt(jobs.startedAt, olderThan(settings.graceSeconds)),
      ),
    )
    .orderBy(asc(jobs.startedAt))
    .limit(BATCH);
  let finished = 0;
  for (const job of overdue) {
    if (!job.ref) continue;
    try {
      const provider = deps.providerFor(job.tool as ToolId, job.provider);
      let payload: unknown = null;
      try {
        payload = (await provider.check?.(job.ref)) ?? null;
      } catch (error) {
        // Unreachable provider: tried again next round, and given up at the time limit.
        logger.warn('could not check a pending job with its provider', { jobId: job.id, error });
      }
      if (payload !== null) {
        if (await completeToolJob(deps, job.id, { payload })) finished++;
      } else if (job.expired) {
        await provider.cancel?.(job.ref);
        const error = new ProviderError(
          `${job.provider} task ${job.ref} did not finish in ${settings.expireSeconds} s`,
        );
        if (await completeToolJob(deps, job.id, { error })) finished++;
      }
    } catch (error) {
      logger.error('could not complete a pending job', { jobId: job.id, error });
    }
  }
  if (finished > 0) logger.warn('backstop finished jobs whose webhook did not come', { finished });
  // A signature is only accepted for 5 minutes, so a day of delivery ids is plenty to spot repeats.
  await db.delete(webhookEvents).where(lt(webhookEvents.receivedAt, sql`now() - interval '1 day'`));
  return finished;
}

/** Runs the backstop every minute in this process; the returned function stops it (and awaits a round). */
export function startPendingJobBackstop(deps: JobCompletionDeps, settings: PendingJobSettings): () => Promise<void> {
  let round: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (round) return; // the last round is still going
    round = checkPendingJobs(deps, settings)
      .catch((error) => deps.logger.error('pending job backstop failed', { error }))
      .finally(() => {
        round = null;
      });
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
