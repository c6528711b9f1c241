// What a waiting page is told about its job (JobDetail, and the 202 of a call still running): its
// place in the line while it waits, for a slot or, held by a worker, for its model, and when it
// should be done, from what runs now (wait-estimate.ts). The line of a provider is read at most once
// a second for every page that asks (a waiting page asks every second or two), and again at once
// when a job it is asked about is not where the last read left it.
import type { JobDetail } from '../../../contract/tool-responses';
import type { AppDb } from '../../db/client';
import { heldJobs, type JobRow, queuedJobsInOrder } from '../queue/jobs-repository';
import { queuePosition } from './job-view';
import { createTypicalRunTime } from './typical-run-time';
import { estimateWait, type Line, runsOnePerModel } from './wait-estimate';

/** What the page shows of a job still waiting or running (contract JobDetail's progress fields). */
export type JobProgress = Pick<JobDetail, 'queuePosition' | 'typicalSeconds' | 'secondsLeft'>;

/** Queued jobs played forward at most: a job further back is told its place, not a time. */
const LINE_READ = 200;
const LINE_FRESH_MS = 1000;

type ProviderLine = Line & { readAt: number; complete: boolean };

export function createJobProgress(
  db: AppDb,
  { slotsPerWorker, now = Date.now }: { slotsPerWorker: number; now?: () => number },
) {
  const typicalRunTime = createTypicalRunTime(db, now);
  const lines = new Map<string, Promise<ProviderLine>>();

  const readLine = async (provider: string): Promise<ProviderLine> => {
    const [held, queued] = await Promise.all([
      heldJobs(db, provider, runsOnePerModel(provider)),
      queuedJobsInOrder(db, provider, LINE_READ),
    ]);
    return {
      held: held.map(({ workerId, heldForSeconds, ...job }) => ({ ...job, worker: workerId, heldFor: heldForSeconds })),
      queued,
      readAt: now(),
      complete: queued.length < LINE_READ,
    };
  };
  const lineOf = async (provider: string, fresh: boolean): Promise<ProviderLine> => {
    const cached = lines.get(provider);
    if (cached && !fresh && now() - (await cached).readAt < LINE_FRESH_MS) return cached;
    const reading = readLine(provider);
    lines.set(provider, reading);
    reading.catch(() => lines.delete(provider));
    return reading;
  };
  /** Whether the line shows the job where it is (a job queued after the read, or taken since, is not). */
  const shows = (line: ProviderLine, job: JobRow) =>
    job.status === 'running'
      ? line.held.some((held) => held.id === job.id)
      : line.queued.some((queued) => queued.id === job.id) || !line.complete;

  return async (job: JobRow): Promise<JobProgress> => {
    if (job.status !== 'queued' && job.status !== 'running') {
      return { queuePosition: null, typicalSeconds: null, secondsLeft: null };
    }
    let line = await lineOf(job.provider, false);
    if (!shows(line, job)) line = await lineOf(job.provider, true);
    const tools = new Set([job.tool, ...line.held.map((held) => held.tool), ...line.queued.map((q) => q.tool)]);
    const typical = new Map<string, number | null>();
    for (const tool of tools)
      typical.set(tool, await typicalRunTime({ status: 'running', tool, provider: job.provider }));
    const inLine = [...line.held, ...line.queued].some((other) => other.id === job.id);
    if (!inLine) {
      // Further back than the line played forward (or taken, or finished, since): its place alone.
      return {
        queuePosition: await queuePosition(db, job),
        typicalSeconds: typical.get(job.tool) ?? null,
        secondsLeft: null,
      };
    }
    const estimate = estimateWait(
      job.id,
      line,
      { slotsPerWorker, oneRunPerModel: runsOnePerModel(job.provider) },
      (tool) => typical.get(tool) ?? null,
    );
    return {
      queuePosition: estimate.position,
      typicalSeconds: typical.get(job.tool) ?? null,
      secondsLeft: estimate.secondsLeft,
    };
  };
}

export type JobProgressOf = ReturnType<typeof createJobProgress>;
