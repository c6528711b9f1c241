// A running job's progress as the tool page shows it: the words for where it stands, and what the
// page keeps of the server's answers. Shared by the runner (use-tool-runner.ts), the result panel
// and the progress line (ResultPanel.tsx, JobProgress.tsx), none of which imports another for it,
// and by a batch's tiles and summary (BatchGrid.tsx, batch/BatchProgress.tsx): one job and a batch
// say a place and a time left in the same words.
import { type JobDetail, QUEUE_AHEAD_COUNTED_UP_TO } from '../../../../contract/tool-responses';

/**
 * 'sending': the call is out, until the server accepts the job; 'queued' and 'running': the server
 * is still working (202). `queuePosition`: its place while it waits (for a slot, or for its model).
 * `startedAt`: when the job was asked for (ms since the epoch), for the elapsed time.
 * `typicalSeconds`: how long the tool usually takes, when the server knows (JobDetail).
 * `doneBy`: when the server expects it done, counting the jobs ahead and beside it (ms since the epoch).
 */
export type RunningJob = {
  phase: 'running';
  status: 'sending' | 'queued' | 'running';
  queuePosition?: number | null;
  typicalSeconds?: number | null;
  doneBy?: number | null;
  startedAt: number;
};

type Progress = Pick<RunningJob, 'status' | 'queuePosition' | 'typicalSeconds' | 'doneBy'>;

const PROGRESS_TEXT = {
  sending: 'Sending your request…',
  queued: 'Queued: waiting for a free worker…',
  running: 'Working on it: this can take a minute…',
} as const;

/**
 * What the user reads while the job runs: its place in the line when it waits, for a slot or, held
 * by a worker, for its model (the server gives a place then too).
 */
export function progressText(job: RunningJob): string {
  const position = job.queuePosition;
  if (job.status === 'sending' || !position) return PROGRESS_TEXT[job.status];
  if (position === 1) return 'Queued: yours is next…';
  const ahead = position - 1;
  // The server counts no further than this: beyond it, it says "at least".
  if (ahead >= QUEUE_AHEAD_COUNTED_UP_TO)
    return `Queued: at least ${QUEUE_AHEAD_COUNTED_UP_TO.toLocaleString('en-US')} jobs ahead of yours…`;
  return `Queued: ${ahead} ${ahead === 1 ? 'job' : 'jobs'} ahead of yours…`;
}

/**
 * What a running job's state keeps of the server's answer (a 202 or a job read): its status, its
 * place while it waits, the tool's usual time, and when it should be done (`secondsLeft` from now).
 */
export function progressFrom(
  answer: Pick<JobDetail, 'queuePosition' | 'typicalSeconds' | 'secondsLeft'> & { status: 'queued' | 'running' },
  receivedAt = Date.now(),
): Progress {
  return {
    status: answer.status,
    queuePosition: answer.queuePosition ?? null,
    typicalSeconds: answer.typicalSeconds ?? null,
    doneBy: answer.secondsLeft == null ? null : receivedAt + answer.secondsLeft * 1000,
  };
}

/** Whether an answer changes what the page shows (a new estimate within a second does not). */
export function sameProgress(a: Partial<Progress>, b: Progress): boolean {
  const doneBy = (p: Partial<Progress>) => (p.doneBy == null ? null : Math.round(p.doneBy / 1000));
  return (
    a.status === b.status &&
    (a.queuePosition ?? null) === b.queuePosition &&
    (a.typicalSeconds ?? null) === b.typicalSeconds &&
    doneBy(a) === doneBy(b)
  );
}

/** 1 -> "1st", 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 22 -> "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n.toLocaleString('en-US')}${suffix}`;
}

/** A batch tile's "Waiting · 3rd in line" (its place when the server gives one). */
export const waitingText = (position: number | null | undefined) =>
  position ? `Waiting · ${ordinal(position)} in line` : 'Waiting';

/** "About 40 s left", "About 3 min left": the server's estimate, for one job or a whole batch. */
export function timeLeftText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return whole < 60 ? `About ${whole} s left` : `About ${Math.ceil(whole / 60)} min left`;
}

/** "0:42", "12:05": minutes and seconds since `startedAt`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
