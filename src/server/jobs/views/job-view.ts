// What the API shows of a job: the contract's job view, its place in the queue, and the wait of a
// request (a tool call, a job read) for its job to finish.
import { type JobView, QUEUE_AHEAD_COUNTED_UP_TO } from '../../../contract/tool-responses';
import type { ToolId } from '../../../contract/tools';
import type { AppDb } from '../../db/client';
import { isFreePreview } from '../../pricing/prices';
import type { JobSignals } from '../queue/job-signals';
import { countQueuedAhead, findJob, type JobRow } from '../queue/jobs-repository';

// The API's job view is the contract's: the web reads the same type.
export type { JobView };

export const fileUrl = (id: string) => `/api/files/${id}`;

export function viewJob(job: JobRow): JobView {
  const result = (job.result ?? {}) as { files?: string[]; keywords?: JobView['keywords']; colors?: JobView['colors'] };
  return {
    id: job.id,
    tool: job.tool as ToolId,
    status: job.status,
    cost: job.cost,
    charged: job.charged,
    demo: isFreePreview(job.tool as ToolId, job.provider),
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    output: result.files ? result.files.map(fileUrl) : null,
    keywords: result.keywords ?? null,
    colors: result.colors ?? null,
  };
}

/**
 * Where a queued job stands: 1 + the queued jobs of the same provider that the queue takes before it
 * (round by round, oldest first within a round: jobs/queue/fair-queue.ts), counted up to
 * QUEUE_AHEAD_COUNTED_UP_TO. Null once it runs or has finished.
 */
export async function queuePosition(db: AppDb, job: JobRow): Promise<number | null> {
  if (job.status !== 'queued') return null;
  return 1 + (await countQueuedAhead(db, job, QUEUE_AHEAD_COUNTED_UP_TO));
}

/**
 * How often a waiting request re-reads its job when every finish is signalled to its process
 * (JobSignals.hearsEveryFinish): only a net for a signal lost or a finish made where it is not
 * heard (a provider's webhook received by another process). Otherwise it re-reads from 100 ms,
 * doubling to a second.
 */
const SAFETY_REREAD_MS = 1000;

/** The job a request waits for is gone: deleted with its account while it waited (issue 36). */
export class JobGoneError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was deleted`);
    this.name = 'JobGoneError';
  }
}

/** Null for a job deleted (with its account) while the request waited for it; any other error stands. */
export function unlessGone(error: unknown): null {
  if (error instanceof JobGoneError) return null;
  throw error;
}

/**
 * How long a request waits for its job: what the client asks with RFC 7240 `Prefer: wait=N`, at most
 * `limitMs`; `unasked` without it (a tool call: the server's limit, the spec's synchronous answer).
 * Our web page asks wait=0 of a call (its 202 ends "Sending your request…") and then follows the
 * job with job reads that wait for its finish (decision 042).
 */
export function waitMsFor(prefer: string | undefined, limitMs: number, unasked = limitMs): number {
  const asked = prefer?.match(/(?:^|[,;\s])wait=(\d{1,5})(?:$|[,;\s])/i)?.[1];
  return asked === undefined ? unasked : Math.min(limitMs, Number(asked) * 1000);
}

/**
 * Waits until the job is final or `timeoutMs` passes (a disconnecting client loses nothing): woken
 * at once by a worker in this process, which hands over the final row and balance (nothing is read
 * back), else re-reading the job with a growing delay, or only every second when this process
 * hears every finish. A job this request has just queued is still queued: with signals, the first
 * read waits for the first wake. `balance` is absent when the job was read here (the caller reads it).
 * Throws JobGoneError when the job no longer exists.
 */
export async function waitForJob(
  db: AppDb,
  jobId: string,
  timeoutMs: number,
  signals?: JobSignals,
  options: { justQueued?: boolean } = {},
): Promise<{ job: JobRow; balance?: number }> {
  const deadline = Date.now() + timeoutMs;
  // Under load a job waits for a slot: re-reads at 100, 300, 700 ms were more round trips than the call itself.
  const heard = signals?.hearsEveryFinish() === true;
  const next = (delay: number) => (heard ? SAFETY_REREAD_MS : Math.min(delay * 2, 1000));
  let delay = heard ? SAFETY_REREAD_MS : 100;
  if (signals && options.justQueued) {
    const finished = await signals.untilFinished(jobId, Math.min(delay, timeoutMs));
    if (finished) return finished;
    delay = next(delay);
  }
  for (;;) {
    const job = await findJob(db, jobId);
    if (!job) throw new JobGoneError(jobId);
    const left = deadline - Date.now();
    if (job.status === 'succeeded' || job.status === 'failed' || left <= 0) return { job };
    const pause = Math.min(delay, left);
    if (!signals) {
      await new Promise((r) => setTimeout(r, pause));
    } else {
      const finished = await signals.untilFinished(jobId, pause);
      if (finished) return finished;
    }
    delay = next(delay);
  }
}
