// "Usually about 0:30": what a user waiting for a job is told to expect, from how long the same
// tool on the same provider took lately. Cached per process for a minute: pages poll a running
// job every second or so, and the median moves slowly. A tool without its few runs yet (a new
// server's first jobs of it) is asked about again after a few seconds: its estimate is there as soon
// as the runs are, not a minute later (issue 54).
import type { AppDb } from '../../db/client';
import { type JobRow, medianRunSeconds } from '../queue/jobs-repository';
import { runsOnePerModel } from './wait-estimate';

const SAMPLE = 20;
/** Fewer finished runs than this and we say nothing rather than guess. */
const MINIMUM_RUNS = 3;
const CACHE_MS = 60_000;
/** How long "no usual time yet" is kept: short, as the next good run may make it known. */
const UNKNOWN_CACHE_MS = 5_000;

export type TypicalRunTime = (job: Pick<JobRow, 'status' | 'tool' | 'provider'>) => Promise<number | null>;

export function createTypicalRunTime(db: AppDb, now: () => number = Date.now): TypicalRunTime {
  const cache = new Map<string, { seconds: number | null; until: number }>();
  return async (job) => {
    if (job.status !== 'queued' && job.status !== 'running') return null;
    const key = `${job.tool}\u0000${job.provider}`;
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.seconds;
    // A run of the local engine is timed from when it got its model: waiting for it is the line's part.
    const median = await medianRunSeconds(db, job.tool, job.provider, {
      sample: SAMPLE,
      minimum: MINIMUM_RUNS,
      fromModel: runsOnePerModel(job.provider),
    });
    // Whole seconds, at least one: "about 0:00" would say nothing.
    const seconds = median === null ? null : Math.max(1, Math.round(median));
    cache.set(key, { seconds, until: now() + (seconds === null ? UNKNOWN_CACHE_MS : CACHE_MS) });
    return seconds;
  };
}
