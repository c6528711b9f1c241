// Job signals between processes (cluster mode: --web and --worker on PostgreSQL, jobs/queue/signal-relay.ts):
// a web process and a worker process, each with its own signals, on one database. On PostgreSQL a job
// queued in the web process wakes a worker slot in the other, and a job finished in the worker process
// wakes the request waiting in the web one, by id alone (decision 043: it reads the row itself);
// processes with both roles do both
// once another worker lives. The embedded database serves one process, whose own signals suffice,
// so nothing is relayed there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobSignals } from '../../src/server/jobs/queue/job-signals';
import { FINISHED_CHANNEL, relaySignals } from '../../src/server/jobs/queue/signal-relay';
import { quietLogger } from '../../src/server/log';
import { createTestDatabase, eventually, type TestDatabase } from '../support/test-backend';
import { finishedJobRow } from '../support/tool-fixtures';

const WEB = { web: true, worker: false };
const WORKER = { web: false, worker: true };
const BOTH = { web: true, worker: true };

describe('job signals between a web and a worker process', () => {
  let database: TestDatabase;
  const stops: Array<() => Promise<void>> = [];
  const web = new JobSignals();
  const worker = new JobSignals();
  let slotWakes = 0;
  /** How long a waiter waits here: long on PostgreSQL (a notice comes), a moment on PGlite (none does). */
  const patience = () => (database.dialect === 'postgres' ? 5_000 : 200);
  /** A request waiting for `jobId` while `finish` runs: what it was handed, and whether it was woken before its wait ran out. */
  async function woken(signals: JobSignals, jobId: string, finish: () => void, ms = patience()) {
    const started = Date.now();
    const waiting = signals.untilFinished(jobId, ms);
    finish();
    const handed = await waiting;
    return { handed, early: Date.now() - started < ms * 0.8 };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    stops.push(await relaySignals(database, web, WEB, quietLogger()));
    stops.push(await relaySignals(database, worker, WORKER, quietLogger()));
    worker.onQueued(() => {
      slotWakes++;
      return true;
    });
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await database.drop();
  });

  it('wakes the request waiting in the web process for a job finished in the worker process, by id alone', async () => {
    const job = finishedJobRow('00000000-0000-4000-8000-0000000000a1');
    const { handed, early } = await woken(web, job.id, () => worker.jobFinished(job.id, { job, balance: 15 }));
    // The row and balance stay in the worker process: the waiter reads them by id.
    expect(handed).toBeNull();
    // On PostgreSQL the notice wakes it; one process on the embedded database relays nothing.
    expect(early).toBe(database.dialect === 'postgres');
  });

  it('wakes a worker slot in the other process when the web process queues a job (PostgreSQL)', async () => {
    const before = slotWakes;
    web.queued();
    if (database.dialect === 'postgres') {
      await eventually(async () => slotWakes > before, 5_000);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(slotWakes).toBe(before);
    }
  });

  it('listens again after its connection to PostgreSQL is lost', async () => {
    if (database.dialect === 'pglite') {
      // One process: there is nothing to listen to.
      expect(database.listen).toBeUndefined();
      return;
    }
    // The server ends the web process's listening connection (a restart, a proxy dropping it).
    const ended = await database.executeSql(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and query = 'listen ${FINISHED_CHANNEL}'`,
    );
    expect(ended.rows).toHaveLength(1);
    // Opened again a second later: a job finished after that reaches the waiting request.
    const job = finishedJobRow('00000000-0000-4000-8000-0000000000a3');
    await eventually(
      async () => (await woken(web, job.id, () => worker.jobFinished(job.id, { job, balance: 7 }), 500)).early,
      10_000,
    );
  });

  it('relays nothing for a process with both roles while it is the only worker', async () => {
    const both = new JobSignals();
    const stop = await relaySignals(database, both, BOTH, quietLogger(), () => true);
    let wakes = 0;
    both.onQueued(() => {
      wakes++;
      return false; // busy: nobody here takes the job
    });
    const before = slotWakes;
    both.queued();
    expect(wakes).toBe(1);
    const job = finishedJobRow('00000000-0000-4000-8000-0000000000a4');
    const waiting = web.untilFinished(job.id, 300);
    both.jobFinished(job.id, { job, balance: 1 });
    expect(await waiting).toBeNull();
    expect(slotWakes).toBe(before);
    await stop();
  });

  it('lets processes with both roles hear each other once another worker lives, and never themselves', async () => {
    const [first, second] = [new JobSignals(), new JobSignals()];
    const wakes = { first: 0, second: 0 };
    first.onQueued(() => {
      wakes.first++;
      return false; // busy
    });
    second.onQueued(() => {
      wakes.second++;
      return true;
    });
    const stopFirst = await relaySignals(database, first, BOTH, quietLogger(), () => false);
    const stopSecond = await relaySignals(database, second, BOTH, quietLogger(), () => false);
    try {
      // A job queued in the first while its own slots are busy wakes a slot in the second.
      first.queued();
      expect(wakes.first).toBe(1);
      if (database.dialect === 'postgres') await eventually(async () => wakes.second === 1, 5_000);
      // A job the second finishes reaches the request waiting in the first.
      const job = finishedJobRow('00000000-0000-4000-8000-0000000000a5');
      const { early } = await woken(first, job.id, () => second.jobFinished(job.id, { job, balance: 4 }));
      expect(early).toBe(database.dialect === 'postgres');
      // Neither heard its own notice: the first's slots were asked once, the second's once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(wakes).toEqual({ first: 1, second: database.dialect === 'postgres' ? 1 : 0 });
    } finally {
      await stopFirst();
      await stopSecond();
    }
  });
});
