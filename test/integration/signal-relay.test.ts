// Job signals between processes (cluster mode: --web and --worker on PostgreSQL, jobs/queue/signal-relay.ts):
// a web process and a worker process, each with its own signals, on one database. On PostgreSQL a job
// queued in the web process wakes a worker slot in the other, and a job finished in the worker process
// wakes the request waiting in the web one, by id alone (decision 043: it reads the row itself);
// processes with both roles do both
// once another worker lives. The embedded database serves one process, whose own signals suffice,
// so nothing is relayed there. Nothing here waits for a while to see: a waiter is woken or, on
// PGlite, still waiting when its own process finishes the job; a notice that must not be sent is
// seen not sent, and one that must not be heard is followed by one that is.
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
  /** A waiter gives up after this: only a notice that never comes leaves it waiting so long. */
  const HANG_MS = 20_000;
  /** What its own process hands a waiter that nothing else woke. */
  const OWN_FINISH = { job: finishedJobRow('00000000-0000-4000-8000-00000000ffff'), balance: -1 };
  /**
   * A request in `signals`' process waiting for `jobId` while `finish` runs elsewhere: whether the
   * other process's finish woke it. On PGlite nothing can: once a query has gone through the
   * database, its own process finishes the job, and it must still have been waiting to be handed that.
   */
  async function wokenByOther(signals: JobSignals, jobId: string, finish: () => void): Promise<boolean> {
    const started = Date.now();
    const waiting = signals.untilFinished(jobId, HANG_MS);
    finish();
    if (database.dialect === 'pglite') {
      await database.executeSql('select 1');
      signals.wakeWaiter(jobId, OWN_FINISH);
      return (await waiting) !== OWN_FINISH;
    }
    // Relayed by id alone: the waiter reads the row itself.
    expect(await waiting).toBeNull();
    return Date.now() - started < HANG_MS;
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
    // On PostgreSQL the notice wakes it (the row and balance stay in the worker process: the waiter
    // reads them by id); one process on the embedded database relays nothing.
    expect(await wokenByOther(web, job.id, () => worker.jobFinished(job.id, { job, balance: 15 }))).toBe(
      database.dialect === 'postgres',
    );
  });

  it('wakes a worker slot in the other process when the web process queues a job (PostgreSQL)', async () => {
    const before = slotWakes;
    web.queued();
    if (database.dialect === 'postgres') {
      await eventually(async () => slotWakes > before);
    } else {
      // Nothing listens on the embedded database: no notice can come later.
      expect(database.listen).toBeUndefined();
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
    // Opened again a second later: a job finished after that reaches the waiting request. Finished
    // again and again until one notice is heard: those sent while nobody listened are lost.
    const job = finishedJobRow('00000000-0000-4000-8000-0000000000a3');
    let heard = false;
    const waiting = web.untilFinished(job.id, HANG_MS).then(() => {
      heard = true;
    });
    await eventually(async () => {
      worker.jobFinished(job.id, { job, balance: 7 });
      return heard;
    });
    await waiting;
  });

  it('relays nothing for a process with both roles while it is the only worker', async () => {
    const both = new JobSignals();
    // Its statements counted: a notice is a statement sent at once (coalesced() starts it in the call).
    const sent: string[] = [];
    const counted = {
      ...database,
      executeSql: (text: string, values?: unknown[]) => {
        sent.push(text);
        return database.executeSql(text, values);
      },
    };
    const stop = await relaySignals(counted, both, BOTH, quietLogger(), () => true);
    let wakes = 0;
    both.onQueued(() => {
      wakes++;
      return false; // busy: nobody here takes the job
    });
    both.queued();
    expect(wakes).toBe(1);
    const job = finishedJobRow('00000000-0000-4000-8000-0000000000a4');
    both.jobFinished(job.id, { job, balance: 1 });
    expect(sent).toEqual([]);
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
      if (database.dialect === 'postgres') await eventually(async () => wakes.second === 1);
      // A job the second finishes reaches the request waiting in the first.
      const job = finishedJobRow('00000000-0000-4000-8000-0000000000a5');
      expect(await wokenByOther(first, job.id, () => second.jobFinished(job.id, { job, balance: 4 }))).toBe(
        database.dialect === 'postgres',
      );
      if (database.dialect === 'postgres') {
        // Neither heard its own notice. A job queued by the web process after the first's notice
        // reaches each listener after it (notices come in order): once both have heard this one,
        // the first's slots were asked once for it and never for their own.
        web.queued();
        await eventually(async () => wakes.first === 2 && wakes.second === 2);
        expect(wakes).toEqual({ first: 2, second: 2 });
      } else {
        expect(wakes).toEqual({ first: 1, second: 0 });
      }
    } finally {
      await stopFirst();
      await stopSecond();
    }
  });
});
