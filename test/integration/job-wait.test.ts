// The waiting tool request (jobs/views/job-view.ts waitForJob): when its process hears every finish
// (JobSignals.hearsEveryFinish: the only process on PGlite, any web process on PostgreSQL, where
// every worker relays its finishes), it waits for the signal and re-reads its job only as a safety
// net, once a second; otherwise it re-reads from 100 ms on, since the finish may happen where
// nobody tells it. Under load (a job waiting
// for a slot for a few hundred milliseconds) those re-reads were more round trips than the call's own.
// The schedule is checked on a clock the test moves (fake timers), against a job table that counts
// its reads: exact at any machine speed.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDb } from '../../src/server/db/client';
import { workerLeases } from '../../src/server/db/schema';
import { JobSignals } from '../../src/server/jobs/queue/job-signals';
import type { JobRow } from '../../src/server/jobs/queue/jobs-repository';
import { FINISHED_CHANNEL } from '../../src/server/jobs/queue/signal-relay';
import { waitForJob } from '../../src/server/jobs/views/job-view';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { finishedJobRow } from '../support/tool-fixtures';

describe('a request waiting for its job', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const succeeded = finishedJobRow(randomUUID());
  const queued: JobRow = { ...succeeded, status: 'queued', result: null, startedAt: null, finishedAt: null };

  /**
   * The job's table as findJob reads it: the row the test last put there, and how many reads were
   * made. Starts the wait of a request that has just queued the job, which hears every finish or not.
   */
  function waitFor(heard: boolean) {
    const table = { row: queued, reads: 0 };
    const db = {
      select: () => {
        table.reads++;
        return { from: () => ({ where: async () => [table.row] }) };
      },
    } as unknown as AppDb;
    const signals = new JobSignals(() => heard);
    const waited = waitForJob(db, queued.id, 5_000, signals, { justQueued: true });
    return { table, signals, waited };
  }

  it('that hears every finish reads nothing back and answers with what the signal carried', async () => {
    const { table, signals, waited } = waitFor(true);
    await vi.advanceTimersByTimeAsync(450);
    expect(table.reads).toBe(0);
    table.row = succeeded;
    signals.jobFinished(succeeded.id, { job: succeeded, balance: 19 });
    expect(await waited).toEqual({ job: succeeded, balance: 19 });
    expect(table.reads).toBe(0);
  });

  it('that may not hear the finish reads its job again from 100 ms on', async () => {
    const { table, signals, waited } = waitFor(false);
    await vi.advanceTimersByTimeAsync(99);
    expect(table.reads).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(table.reads).toBe(1); // at 100 ms: still queued
    await vi.advanceTimersByTimeAsync(199);
    expect(table.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(table.reads).toBe(2); // at 300 ms
    // The signal at 450 ms ends the wait before the next read (at 700 ms).
    await vi.advanceTimersByTimeAsync(150);
    table.row = succeeded;
    signals.jobFinished(succeeded.id, { job: succeeded, balance: 19 });
    expect((await waited).job.status).toBe('succeeded');
    expect(table.reads).toBe(2);
  });

  it('that was not told of a finish still finds it a second on', async () => {
    const { table, waited } = waitFor(true);
    await vi.advanceTimersByTimeAsync(200);
    table.row = succeeded; // finished where nobody tells this process
    await vi.advanceTimersByTimeAsync(799);
    expect(table.reads).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(table.reads).toBe(1);
    const { job, balance } = await waited;
    expect(job.status).toBe('succeeded');
    expect(balance).toBeUndefined();
  });
});

describe('the signals of a back end with both roles', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    // Slots that do not poll during the test, and heartbeats twice a second.
    backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60', WORKER_LEASE_SECONDS: '3' } });
  });
  afterAll(() => backend.stop());

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
