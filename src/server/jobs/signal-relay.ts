// Cluster mode's signals (--web and --worker processes on PostgreSQL): a web process announces each
// job it queues and the worker processes wake an idle slot; a worker process announces each job it
// finishes, with the final row and balance when they fit in a notice, and the web processes hand
// them to the request waiting for it (which then reads nothing back). Through NOTIFY/LISTEN, so a job
// waits neither for the workers' next poll (QUEUE_POLL_SECONDS) nor for the waiting request's next
// read (up to a second apart): without it, 2 web + 2 worker processes answered half the calls of
// one process (bench/load.ts --cluster). A lost notice costs only the poll it saves.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import type { FinishedJob, JobSignals } from './job-signals';

export const QUEUED_CHANNEL = 'pp_job_queued';
export const FINISHED_CHANNEL = 'pp_job_finished';

/** A NOTIFY payload must stay under 8,000 bytes; a finished job larger than this goes as its id. */
const NOTICE_BYTES = 7_000;

/** One finished job in a notice: its id, the sender, and its final row and balance when they fit. */
type FinishedNotice = { id: string; from?: string; finished?: FinishedJob };

/**
 * Relays this process's signals to the others and theirs to it, as its roles need: a web process
 * sends the jobs it queues and hears the jobs finished elsewhere; a worker process hears the jobs
 * queued elsewhere and sends the jobs it finishes. A process with both roles does both, but sends
 * only while another worker lives (`alone`: its worker lease's count of others); alone, its own
 * in-process signals reach everyone who waits. Notices carry their sender, who ignores its own.
 * Answers how to stop.
 */
export async function relaySignals(
  database: Database,
  signals: JobSignals,
  role: { web: boolean; worker: boolean },
  logger: Logger,
  alone: () => boolean = () => false,
): Promise<() => Promise<void>> {
  if (!database.listen || (!role.web && !role.worker)) return async () => {};
  const self = randomUUID();
  const send = (channel: string) => (payload: string) =>
    database
      .executeSql('select pg_notify($1, $2)', [channel, payload])
      .then(() => {})
      .catch((error) => logger.warn('a job signal was not sent; the other side polls', { channel, error }));
  const finishedNotices = coalesced(send(FINISHED_CHANNEL), (items) => `[${items.join(',')}]`);
  const queuedNotices = coalesced(send(QUEUED_CHANNEL), () => self);
  const announceFinished = (id: string, finished?: FinishedJob) => {
    const whole = JSON.stringify({ id, from: self, finished } satisfies FinishedNotice);
    finishedNotices(Buffer.byteLength(whole) <= NOTICE_BYTES ? whole : JSON.stringify({ id, from: self }));
  };
  const hearFinished = (payload: string) => {
    for (const { id, from, finished } of readFinishedNotices(payload))
      if (from !== self) signals.wakeWaiter(id, finished);
  };
  const hearQueued = (payload: string) => {
    if (payload !== self) signals.wakeWorker();
  };
  if (role.web && role.worker) {
    signals.relayTo({
      queued: () => {
        if (!alone()) queuedNotices(self);
      },
      finished: (id, finished) => {
        if (!alone()) announceFinished(id, finished);
      },
    });
    const stops = [
      await database.listen(FINISHED_CHANNEL, hearFinished),
      await database.listen(QUEUED_CHANNEL, hearQueued),
    ];
    return async () => {
      for (const stop of stops) await stop();
    };
  }
  if (role.web) {
    // A web process finishes jobs too (a provider's webhook), maybe one another web process waits for.
    signals.relayTo({ queued: () => queuedNotices(self), finished: announceFinished });
    return database.listen(FINISHED_CHANNEL, hearFinished);
  }
  signals.relayTo({ queued: () => {}, finished: announceFinished });
  return database.listen(QUEUED_CHANNEL, hearQueued);
}

/** The finished jobs of a notice, their rows' times as dates again; nothing from a malformed one. */
export function readFinishedNotices(payload: string): FinishedNotice[] {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (!Array.isArray(parsed)) return [];
    const notices = parsed.filter((notice): notice is FinishedNotice => typeof notice?.id === 'string');
    for (const { finished } of notices) {
      if (!finished) continue;
      const job = finished.job;
      for (const key of ['createdAt', 'startedAt', 'finishedAt'] as const) {
        const at = job[key] as Date | string | null;
        if (typeof at === 'string') (job as Record<typeof key, Date | null>)[key] = new Date(at);
      }
    }
    return notices;
  } catch {
    return [];
  }
}

/**
 * One notice in flight at a time: what is announced meanwhile goes out packed into the next one
 * (up to NOTICE_BYTES; the same item once). Under load that is a few notices a second instead of one
 * per job; alone, a job's notice leaves at once.
 */
export function coalesced(sendNotice: (payload: string) => Promise<void>, pack: (items: string[]) => string) {
  const waiting = new Set<string>();
  let sending = false;
  const flush = async () => {
    sending = true;
    while (waiting.size > 0) {
      const batch: string[] = [];
      let bytes = 0;
      for (const item of waiting) {
        const size = Buffer.byteLength(item) + 1;
        if (batch.length > 0 && bytes + size > NOTICE_BYTES) break;
        batch.push(item);
        bytes += size;
      }
      for (const item of batch) waiting.delete(item);
      await sendNotice(pack(batch));
    }
    sending = false;
  };
  return (item: string) => {
    waiting.add(item);
    if (!sending) void flush();
  };
}
