import { useEffect, useState } from 'react';
import { formatElapsed, progressText, type RunningJob, timeLeftText } from './progress';

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
 * Where a running job stands, how long it has taken so far and how long it still needs: the
 * server's estimate in a batch's words ("About 40 s left"), which counts the jobs ahead of it and
 * beside it, or without one how long the tool usually takes. An expectation that each answer
 * corrects (the server says at least a second while the job runs), not a promise.
 */
export function JobProgress({ job }: { job: RunningJob }) {
  const now = useNow();
  const expected = job.doneBy
    ? ` · ${timeLeftText((job.doneBy - now) / 1000)}`
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
