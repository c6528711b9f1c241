// A run whose job is deleted with its account stops (issue 36): its provider's AbortSignal aborts,
// at once when the deletion was made in this process (JobSignals), else at the run's next check of
// the job's row, which is how a worker process hears of a deletion made by a web process.
import type { AppDb } from '../../db/client';
import type { JobSignals } from '../queue/job-signals';
import { jobExists } from '../queue/jobs-repository';

/** How often a run checks that its job still exists: one indexed read per running job, a minute's CPU saved. */
export const DELETION_CHECK_MS = 3_000;

export type DeletionWatch = {
  /** Aborts when the job is found deleted. */
  signal: AbortSignal;
  /** Whether the job was found deleted: its run must then leave it alone (no finish, refund or retry). */
  deleted(): boolean;
  stop(): void;
};

export function watchForDeletion(
  db: AppDb,
  jobId: string,
  signals: JobSignals | undefined,
  everyMs = DELETION_CHECK_MS,
): DeletionWatch {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const gone = () => {
    stop();
    controller.abort(new Error(`job ${jobId} was deleted with its account`));
  };
  const stopListening = signals?.onDeleted(jobId, gone) ?? (() => {});
  const check = async () => {
    // A database that does not answer says nothing about the job: the run goes on.
    const exists = await jobExists(db, jobId).catch(() => true);
    if (controller.signal.aborted || timer === undefined) return;
    if (exists) schedule();
    else gone();
  };
  // One check at a time: a slow database does not pile them up.
  const schedule = () => {
    timer = setTimeout(check, everyMs);
    timer.unref();
  };
  function stop() {
    clearTimeout(timer);
    timer = undefined;
    stopListening();
  }
  schedule();
  return { signal: controller.signal, deleted: () => controller.signal.aborted, stop };
}
