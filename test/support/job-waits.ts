// What the requests of a process are doing while they wait for jobs (JobSignals.untilFinished, the
// wait of a tool call or a job read): a test starts the next step once a request is waiting,
// rather than after a pause it hopes is long enough.
import { vi } from 'vitest';
import type { FinishedJob, JobSignals } from '../../src/server/jobs/queue/job-signals';

export function watchJobWaits(signals: JobSignals) {
  const waiting = new Map<string, number>();
  const handed: Array<{ jobId: string; finished: FinishedJob | null }> = [];
  const untilFinished = signals.untilFinished.bind(signals);
  const spy = vi.spyOn(signals, 'untilFinished').mockImplementation(async (jobId, ms) => {
    waiting.set(jobId, (waiting.get(jobId) ?? 0) + 1);
    try {
      const finished = await untilFinished(jobId, ms);
      handed.push({ jobId, finished });
      return finished;
    } finally {
      waiting.set(jobId, (waiting.get(jobId) ?? 1) - 1);
    }
  });
  return {
    /** How many waits for `jobId` are going on now. */
    waitingFor: (jobId: string) => waiting.get(jobId) ?? 0,
    /** Whether a wait for `jobId` was ended by the job's finish carrying its row (not by running out). */
    handedFinish: (jobId: string) => handed.some((wait) => wait.jobId === jobId && wait.finished !== null),
    restore: () => spy.mockRestore(),
  };
}
