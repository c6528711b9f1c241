import { useEffect, useState } from 'react';
import type { JobDetail } from '../../../../contract/tool-responses';
import type { JobState } from '../use-tool-runner';
import { progressText } from './ResultPanel';

type Running = Extract<JobState, { phase: 'running' }>;
type Progress = Pick<Running, 'status' | 'queuePosition' | 'typicalSeconds' | 'doneBy'>;

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

/** "0:42", "12:05": minutes and seconds since `startedAt`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Now, ticking each second. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Where a running job stands, how long it has taken so far and how long it should take in all: the
 * server's estimate, which counts the jobs ahead of it and beside it (never less than the time
 * already taken), or without one how long the tool usually takes. An expectation that each answer
 * corrects, not a countdown.
 */
export function JobProgress({ job }: { job: Running }) {
  const now = useNow();
  const inAll = job.doneBy ? Math.max(job.doneBy, now) - job.startedAt : null;
  const expected = inAll
    ? ` · about ${formatElapsed(inAll)} in all`
    : job.typicalSeconds
      ? ` · usually about ${formatElapsed(job.typicalSeconds * 1000)}`
      : '';
  return (
    <>
      {progressText(job)}{' '}
      <span className="pp-tabular pp-progress__elapsed">
        {formatElapsed(now - job.startedAt)} elapsed{expected}
      </span>
    </>
  );
}
