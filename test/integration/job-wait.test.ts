// The waiting tool request (jobs/views/job-view.ts waitForJob): when its process hears every finish
// (JobSignals.hearsEveryFinish: the only process on PGlite, any web process on PostgreSQL, where
// every worker relays its finishes), it waits for the signal and re-reads its job only as a safety
// net, once a second; otherwise it re-reads from 100 ms on, since the finish may happen where
// nobody tells it. Under load (a job waiting
// for a slot for a few hundred milliseconds) those re-reads were more round trips than the call's own.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDb } from '../../src/server/db/client';
import { jobs, workerLeases } from '../../src/server/db/schema';
import { JobSignals } from '../../src/server/jobs/queue/job-signals';
import { markSucceeded } from '../../src/server/jobs/queue/jobs-repository';
import { FINISHED_CHANNEL } from '../../src/server/jobs/queue/signal-relay';
import { waitForJob } from '../../src/server/jobs/views/job-view';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { chargeTextToPicJob, finishedJobRow, verifiedUser } from '../support/tool-fixtures';

/** The database, counting the reads made through it. */
function countingReads(db: AppDb) {
  const counter = { reads: 0 };
  const counted = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'select')
        return (...args: Parameters<AppDb['select']>) => {
          counter.reads++;
          return target.select(...args);
        };
      return Reflect.get(target, key, receiver);
    },
  });
  return { db: counted, counter };
}

describe('a request waiting for its job', () => {
  let backend: TestBackend;
  let userId: string;
  beforeAll(async () => {
    // Slots that do not poll during the test, and heartbeats twice a second.
    backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60', WORKER_LEASE_SECONDS: '3' } });
    ({ id: userId } = await verifiedUser(backend, 20));
  });
  afterAll(() => backend.stop());

  /**
   * Waits (5 s at most) for a job queued for nobody, which the test finishes itself after `finishMs`,
   * telling the waiter's signals or not; the waiter hears every finish or not. Answers what the
   * wait answered, how many reads it made and how long it took.
   */
  async function waitWhileFinished(options: { heard: boolean; finishMs: number; signalled: boolean }) {
    const signals = new JobSignals(() => options.heard);
    const { job } = await chargeTextToPicJob(backend, userId);
    const finish = async () => {
      await new Promise((resolve) => setTimeout(resolve, options.finishMs));
      const change = { result: { files: [] }, provider: 'demo', outputs: [] };
      await backend.database.db.update(jobs).set({ status: 'running' }).where(eq(jobs.id, job.id));
      const { finished } = await markSucceeded(backend.database.db, job, change, { run: null });
      if (options.signalled && finished) {
        const row = { ...job, status: 'succeeded' as const, finishedAt: finished.finishedAt };
        signals.jobFinished(job.id, { job: row, balance: finished.balance });
      }
    };
    const { db, counter } = countingReads(backend.database.db);
    const started = Date.now();
    const [waited] = await Promise.all([waitForJob(db, job.id, 5_000, signals, { justQueued: true }), finish()]);
    return { waited, reads: counter.reads, waitedMs: Date.now() - started };
  }

  it('that hears every finish reads nothing back and answers with what the signal carried', async () => {
    const { waited, reads } = await waitWhileFinished({ heard: true, finishMs: 450, signalled: true });
    expect(waited.job.status).toBe('succeeded');
    expect(waited.balance).toBeTypeOf('number');
    expect(reads).toBe(0);
  });

  it('that may not hear the finish reads its job again from 100 ms on', async () => {
    const { waited, reads } = await waitWhileFinished({ heard: false, finishMs: 450, signalled: true });
    expect(waited.job.status).toBe('succeeded');
    // Read at 100 and 300 ms, still queued; the signal at 450 ms ends the wait (later on a busy machine).
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it('that was not told of a finish still finds it within about a second', async () => {
    const { waited, reads, waitedMs } = await waitWhileFinished({ heard: true, finishMs: 200, signalled: false });
    expect(waited.job.status).toBe('succeeded');
    expect(waited.balance).toBeUndefined();
    expect(reads).toBe(1);
    expect(waitedMs).toBeGreaterThanOrEqual(950);
    expect(waitedMs).toBeLessThan(3_000);
  });

  it('hears every finish with both roles, alone or not; with company it also relays its own finishes', async () => {
    expect(backend.signals.hearsEveryFinish()).toBe(true);
    const notices: string[] = [];
    const stopListening = await backend.database.listen?.(FINISHED_CHANNEL, (payload) => notices.push(payload));
    const other = randomUUID();
    await backend.database.db.insert(workerLeases).values({ id: other, host: 'elsewhere', pid: 1 });
    try {
      // On PostgreSQL the other worker relays its finishes; on PGlite there is no other process.
      expect(backend.signals.hearsEveryFinish()).toBe(true);
      if (!stopListening) return;
      // Once its heartbeat has counted the other lease, a finish here is announced to the others.
      const job = finishedJobRow(randomUUID());
      await eventually(async () => {
        backend.signals.jobFinished(job.id, { job, balance: 2 });
        await new Promise((resolve) => setTimeout(resolve, 100));
        return notices.some((notice) => notice.includes(job.id));
      }, 10_000);
      // Any session that listens hears it: ids only, not the row's prompt, owner or Idempotency-Key.
      for (const notice of notices) {
        for (const item of JSON.parse(notice) as object[]) expect(Object.keys(item).sort()).toEqual(['from', 'id']);
      }
      expect(backend.signals.hearsEveryFinish()).toBe(true);
    } finally {
      await stopListening?.();
      await backend.database.db.delete(workerLeases).where(eq(workerLeases.id, other));
    }
  });
});
