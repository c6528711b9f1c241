import { useEffect, useState } from 'react';
import { formatElapsed, progressText, type RunningJob } from './progress';

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
export function JobProgress({ job }: { job: RunningJob }) {
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
