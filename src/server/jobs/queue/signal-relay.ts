// Cluster mode's signals (--web and --worker processes on PostgreSQL): a web process announces each
// job it queues and the worker processes wake an idle slot; a worker process announces each job it
// finishes, by id, and the web processes wake the request waiting for it, which reads the job by id.
// Through NOTIFY/LISTEN, so a job waits neither for the workers' next poll (QUEUE_POLL_SECONDS) nor
// for the waiting request's next read (up to a second apart): without it, 2 web + 2 worker
// processes answered half the calls of one process (bench/load.ts --cluster). A lost notice costs
// only the poll it saves. A notice carries nothing but ids (decision 043): any session that listens
// on the channel hears it, and a job's row holds its prompt, owner and Idempotency-Key.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client';
import type { Logger } from '../../log';
import type { JobSignals } from './job-signals';

export const QUEUED_CHANNEL = 'pp_job_queued';
export const FINISHED_CHANNEL = 'pp_job_finished';

/** A NOTIFY payload must stay under 8,000 bytes: notices packed together stay under this. */
const NOTICE_BYTES = 7_000;

/** One finished job in a notice: its id and the sender. */
type FinishedNotice = { id: string; from?: string };

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
  // The finisher's row and balance stay in this process: the waiter elsewhere reads them by id.
  const announceFinished = (id: string) => finishedNotices(JSON.stringify({ id, from: self } satisfies FinishedNotice));
  const hearFinished = (payload: string) => {
    for (const { id, from } of readFinishedNotices(payload)) if (from !== self) signals.wakeWaiter(id);
  };
  const hearQueued = (payload: string) => {
    if (payload !== self) signals.wakeWorker();
  };
  if (role.web && role.worker) {
    signals.relayTo({
      queued: () => {
        if (!alone()) queuedNotices(self);
      },
      finished: (id) => {
        if (!alone()) announceFinished(id);
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

/** The finished jobs of a notice, ids and senders only (anything else in it is ignored); nothing from a malformed one. */
export function readFinishedNotices(payload: string): FinishedNotice[] {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((notice): notice is FinishedNotice => typeof notice?.id === 'string')
      .map(({ id, from }) => (typeof from === 'string' ? { id, from } : { id }));
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
