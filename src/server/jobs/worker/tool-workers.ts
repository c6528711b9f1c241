// The worker's loops over the tool-run queue, which is the `jobs` table itself
// (docs/decisions/037-tool-run-queue-in-jobs.md): each slot takes the next due job and claims its
// row in one statement (jobs/jobs-repository.ts takeNextJob), runs it and finishes it; a run that throws
// has its job queued again after the retry's delay, or refunded after its last try.

import { type TakenJob, takeNextJob } from '../queue/jobs-repository';
import { runToolJob, type ToolJobDeps, tryAgainOrRefund } from './job-runner';
import { Slot } from './worker-slot';

/**
 * Starts `concurrency` slots (WORKER_CONCURRENCY), each running one job at a time. A slot with
 * nothing to do looks again every `pollingIntervalSeconds`, or at once when this process queues a
 * job (JobSignals). The returned function stops taking jobs and waits (at most 10 s) for the ones
 * in hand.
 */
export function startToolWorkers(
  deps: ToolJobDeps,
  {
    pollingIntervalSeconds,
    concurrency,
    stopWaitSeconds,
  }: {
    pollingIntervalSeconds: number;
    concurrency: number;
    /** How long a stop waits for the jobs in hand before leaving them to the next worker (the orphan sweep). */
    stopWaitSeconds: number;
  },
): () => Promise<void> {
  let stopping = false;
  const pollMs = pollingIntervalSeconds * 1000;
  const slots = Array.from({ length: concurrency }, () => new Slot(pollMs));
  for (const slot of slots) {
    deps.signals?.onQueued(() => slot.wake());
    deps.signals?.onIdleWorker(() =>
      !stopping && slot.reserve()
        ? { workerId: deps.workerId ?? null, run: (taken) => slot.handOver(taken), release: () => slot.release() }
        : null,
    );
  }
  const stopTaking = () => {
    stopping = true;
    for (const slot of slots) slot.wake();
  };
  const loops = slots.map(async (slot) => {
    // A job claimed for this slot already: charged in this process, or taken with the last finish.
    let handed: TakenJob | null = null;
    while (!stopping || handed) {
      if (!handed) slot.looking(); // a wake that came while it was held still counts after the job
      const taken = handed ?? (await takeNext(deps));
      handed = null;
      if (!taken) {
        handed = await slot.idle();
        continue;
      }
      slot.busy = true;
      const started = Date.now();
      // Straight on while jobs wait (or one was queued meanwhile: a wake), after a long job, else
      // at the next poll; not an empty look after every job.
      const worthLooking = () =>
        !stopping && (taken.moreWaiting || slot.wokenSinceLooking || Date.now() - started >= pollMs);
      // Asked by a success's finish, which then takes the next job in its own statement.
      let finishLooked = false;
      const lookWithFinish = () => {
        finishLooked = worthLooking();
        if (finishLooked) slot.looking(); // a wake from now on means "look again"
        return finishLooked;
      };
      try {
        handed = await runTaken(deps, taken, lookWithFinish);
      } finally {
        slot.busy = false;
      }
      // Nothing taken: if the finish looked and found nothing, or looking is not worth it now, the
      // slot waits as after an empty take; else it looks at the top of the loop.
      if (!handed && (finishLooked || !worthLooking())) handed = await slot.idle();
    }
  });

  return async () => {
    stopTaking();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>((resolve) => {
      timer = setTimeout(() => resolve('gave up'), stopWaitSeconds * 1000);
    });
    const outcome = await Promise.race([Promise.all(loops), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'gave up')
      deps.logger.warn('stopped with tool jobs still running; the next worker takes them over', {});
  };
}

/** The next due job, claimed; null when there is none or the database did not answer (tried again later). */
async function takeNext(deps: ToolJobDeps): Promise<TakenJob | null> {
  try {
    return await takeNextJob(deps.db, deps.workerId ?? null);
  } catch (error) {
    deps.logger.error('could not take the next tool job', { error });
    return null;
  }
}

/**
 * Runs a taken job; one that throws is queued again after the retry's delay, or refunded after its
 * last try. Answers the next job when its finish took one (runToolJob's `lookWithFinish`).
 */
async function runTaken(deps: ToolJobDeps, taken: TakenJob, lookWithFinish: () => boolean): Promise<TakenJob | null> {
  try {
    return await runToolJob(deps, taken, lookWithFinish);
  } catch (error) {
    const { jobId, job } = taken;
    try {
      const outcome = await tryAgainOrRefund(deps, job, { delaySeconds: deps.retryDelaySeconds });
      deps.logger.warn('tool job run failed', { jobId, tool: job.tool, attempt: job.attempts, outcome, error });
    } catch (retryError) {
      // Left running: its expiry (the orphan sweep) hands it back.
      deps.logger.error('could not queue a failed tool job again', { jobId, error, retryError });
    }
    return null;
  }
}
