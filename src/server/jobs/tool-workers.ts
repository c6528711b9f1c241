// The worker's loops over the tool-run queue (docs/decisions/027-own-tool-queue-consumer.md): each
// slot takes the next due job and claims its row in one statement (jobs-repository.ts takeNextJob),
// runs it, and its finish completes the queue's job, where pg-boss's own worker would have spent a
// fetch and a completion of its own around our claim and finish. pg-boss still sends the jobs,
// retries a failed one after its delay, fails an expired one and dead-letters the last try.
import { type ToolId, toolById } from '../../contract/tools';
import type { ToolJobRequest } from './charge-and-queue';
import { failAndRefund, runToolJob, type ToolJobDeps } from './job-runner';
import { findJob, type TakenJob, takeNextJob } from './jobs-repository';
import { QUEUE_NAMES, type Queue } from './queue';
import { Slot } from './worker-slot';

/** How long a stop waits for the jobs in hand before leaving them to the next worker (as pg-boss's stop did). */
const STOP_WAIT_MS = 10_000;

/**
 * Starts `concurrency` slots (WORKER_CONCURRENCY), each running one job at a time, and the dead
 * letter's refunds. A slot with nothing to do looks again every `pollingIntervalSeconds`, or at once
 * when this process queues a job (JobSignals). The returned function stops taking jobs and waits
 * (at most 10 s) for the ones in hand.
 */
export async function startToolWorkers(
  queue: Queue,
  deps: ToolJobDeps,
  { pollingIntervalSeconds, concurrency }: { pollingIntervalSeconds: number; concurrency: number },
): Promise<() => Promise<void>> {
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
  // The slots are the queue's consumers: once it has stopped, however it was stopped, they take no more.
  queue.once('stopped', stopTaking);
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
      // Like pg-boss's own worker: straight on while jobs wait (or one was queued meanwhile: a
      // wake), after a long job, else at the next poll; not an empty look after every job.
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
        handed = await runTaken(queue, deps, taken, lookWithFinish);
      } finally {
        slot.busy = false;
      }
      // Nothing taken: if the finish looked and found nothing, or looking is not worth it now, the
      // slot waits as after an empty take; else it looks at the top of the loop.
      if (!handed && (finishLooked || !worthLooking())) handed = await slot.idle();
    }
  });

  // Jobs that used up their tries, or expired because a worker died mid-job: refund them.
  await queue.work<ToolJobRequest>(QUEUE_NAMES.toolRunDead, { pollingIntervalSeconds }, async ([job]) => {
    if (!job) return;
    const row = await findJob(deps.db, job.data.jobId);
    if (!row) return;
    const refunded = await failAndRefund(deps.db, job.data.jobId, toolById(row.tool as ToolId).failureMessage);
    if (refunded) {
      deps.logger.warn('tool job refunded after its last try', { jobId: job.data.jobId });
      deps.signals?.jobFinished(job.data.jobId, refunded);
    }
  });

  return async () => {
    stopTaking();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>((resolve) => {
      timer = setTimeout(() => resolve('gave up'), STOP_WAIT_MS);
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
 * Runs a taken job; one that throws is failed in the queue, which retries it after its delay or
 * dead-letters it. Answers the next job when its finish took one (runToolJob's `lookWithFinish`).
 */
async function runTaken(
  queue: Queue,
  deps: ToolJobDeps,
  taken: TakenJob,
  lookWithFinish: () => boolean,
): Promise<TakenJob | null> {
  try {
    return await runToolJob(deps, taken, lookWithFinish);
  } catch (error) {
    await queue
      .fail(QUEUE_NAMES.toolRun, taken.queueJobId, { message: error instanceof Error ? error.message : String(error) })
      .catch((failError) =>
        // Left active: the queue's expiry, or the orphan sweep when this worker is gone, takes it on.
        deps.logger.error('could not hand a failed tool job back to the queue', {
          jobId: taken.jobId,
          error: failError,
        }),
      );
    return null;
  }
}
