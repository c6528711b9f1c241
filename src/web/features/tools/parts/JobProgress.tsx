import { useEffect, useState } from 'react';
import type { JobState } from '../use-tool-runner';
import { progressText } from './ResultPanel';

type Running = Extract<JobState, { phase: 'running' }>;

/** "0:42", "12:05": minutes and seconds since `startedAt`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The time since the job was asked for, ticking each second. */
function useElapsed(startedAt: number): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return formatElapsed(now - startedAt);
}

/**
 * Where a running job stands, how long it has taken so far and, when the server knows how long this
 * tool usually takes (recent runs), that too: an honest expectation, not a countdown that lies.
 */
export function JobProgress({ job }: { job: Running }) {
  const elapsed = useElapsed(job.startedAt);
  const typical = job.typicalSeconds ? ` · usually about ${formatElapsed(job.typicalSeconds * 1000)}` : '';
  return (
    <>
      {progressText(job)}{' '}
      <span className="pp-tabular pp-progress__elapsed">
        {elapsed} elapsed{typical}
      </span>
    </>
  );
}
