// Jobs caught by a crash: a job whose worker is gone (its lease lapsed, or removed) is handed back
// by the lease, not left `running` until its 15-minute expiry: it runs again and is charged
// once, or, out of tries, it is refunded. The run that was caught never finishes it later. A job
// running past its expiry is handed back even though its worker lives. Leases here are 3 s (the
// sweep looks every half second) and the expiry stays 15 minutes: only the lease can hand a job back
// while a test runs.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, ledger, workerLeases } from '../../src/server/db/schema';
import type { InferenceProvider, ToolResult } from '../../src/server/inference/provider';
import { handBackOrphanedJobs } from '../../src/server/jobs/worker/orphaned-jobs';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { startBackend } from '../../src/server/system';
import type { TestClient } from '../support/http-client';
import {
  createTestBackend,
  createTestDatabase,
  eventually,
  NEUTRAL_CLASSIFIER,
  recordingLogger,
  type TestBackend,
  testConfig,
} from '../support/test-backend';
import { chargeTextToPicJob, instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const generate = { prompt: 'a lighthouse at dusk', numOutputs: 1 };
/** A call answered at once (202): its job is followed by reading it. */
const generateImage = (client: TestClient) =>
  client.request<{ jobId: string; status: string }>('POST', '/api/generate-image', {
    body: generate,
    headers: { prefer: 'wait=0' },
  });
/** The shortest lease the config takes: the sweep looks every sixth of it. */
const SHORT_LEASE = { WORKER_LEASE_SECONDS: '3' };
/** What the caught run logs when it returns to find its job no longer its own: its last word. */
const OUTCOME_DROPPED = /no longer holds its job/;

/** Runs that hang until the test lets them go (the worker presumed dead), then answer at once. */
function heldProvider(holdRuns: number) {
  const instant = instantProvider();
  const held: Array<() => void> = [];
  const provider: InferenceProvider = {
    ...instant,
    async run(input, signal): Promise<ToolResult> {
      if (held.length < holdRuns) await new Promise<void>((release) => held.push(release));
      return instant.run(input, signal);
    },
  };
  return { provider, held, calls: () => instant.calls.length };
}

type JobView = { status: string; output: string[] | null; error: string | null };

/** The worker holding the job dies: its lease stops being renewed (here: it lapsed minutes ago). */
async function workerOfJobDies(backend: TestBackend, jobId: string) {
  const dead = randomUUID();
  await backend.database.db.insert(workerLeases).values({
    id: dead,
    host: 'gone',
    pid: 1,
    heartbeatAt: sql`now() - interval '5 minutes'`,
  });
  await backend.database.db.update(jobs).set({ workerId: dead }).where(eq(jobs.id, jobId));
  return dead;
}

describe('a job whose worker is gone', () => {
  let backend: TestBackend;
  let held: ReturnType<typeof heldProvider>;
  const log = recordingLogger();
  beforeAll(async () => {
    held = heldProvider(1);
    backend = await createTestBackend({
      env: SHORT_LEASE,
      inference: routerWith(held.provider),
      logger: log.logger,
    });
  });
  afterAll(() => backend.stop());
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  it('is run again, charged once, and the caught run changes nothing', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const started = await generateImage(client);
    expect(started.status).toBe(202);
    const { jobId } = started.body;
    const view = async () => (await client.get<JobView>(`/api/jobs/${jobId}`)).body;
    await eventually(async () => held.held.length === 1);
    expect((await view()).status).toBe('running');

    await workerOfJobDies(backend, jobId);
    const done = await eventually(async () => {
      const job = await view();
      return job.status === 'succeeded' || job.status === 'failed' ? job : null;
    }, 60_000);
    expect(done.status).toBe('succeeded');

    // The caught run ends after all: its answer is dropped, the job keeps the later run's result.
    held.held[0]?.();
    await eventually(async () => log.count(OUTCOME_DROPPED) === 1);
    expect(held.calls()).toBe(2);
    expect(await view()).toEqual(done);
    const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row?.attempts).toBe(2);
    const entries = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(entries.map((e) => `${e.reason} ${e.delta}`).sort()).toEqual(['job -1', 'signup 20']);
    expect(await tokensOf(client)).toBe(19);
  }, 90_000);
});

describe('a job whose worker is gone, with no worker free', () => {
  let backend: TestBackend;
  let held: ReturnType<typeof heldProvider>;
  beforeAll(async () => {
    held = heldProvider(1);
    // One slot, held by the caught run: the job handed back has to wait for it.
    backend = await createTestBackend({
      env: { WORKER_CONCURRENCY: '1', ...SHORT_LEASE },
      inference: routerWith(held.provider),
    });
  });
  afterAll(() => backend.stop());

  it('shows the job queued again, and the caught run returning meanwhile cannot finish it', async () => {
    const { client } = await verifiedUser(backend, 20);
    const started = await generateImage(client);
    const { jobId } = started.body;
    const view = async () => (await client.get<JobView>(`/api/jobs/${jobId}`)).body;
    await eventually(async () => held.held.length === 1);
    await workerOfJobDies(backend, jobId);
    await eventually(async () => (await view()).status === 'queued', 60_000);

    held.held[0]?.();
    const done = await eventually(async () => {
      const job = await view();
      return job.status === 'succeeded' ? job : null;
    });
    expect(done.output).toHaveLength(1);
    const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row?.attempts).toBe(2);
    expect(await tokensOf(client)).toBe(19);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  }, 90_000);
});

describe('a job whose workers keep dying', () => {
  let backend: TestBackend;
  let held: ReturnType<typeof heldProvider>;
  beforeAll(async () => {
    held = heldProvider(Number.POSITIVE_INFINITY);
    backend = await createTestBackend({
      env: SHORT_LEASE,
      inference: routerWith(held.provider),
    });
  });
  afterAll(async () => {
    for (const release of held.held) release();
    await backend.stop();
  });

  it('is refunded after its last try, once', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const started = await generateImage(client);
    expect(started.status).toBe(202);
    const { jobId } = started.body;
    for (let run = 1; run <= 3; run++) {
      await eventually(async () => held.held.length === run, 30_000);
      // This time the lease is simply gone (removed, as a successor on the embedded database does).
      const gone = randomUUID();
      await backend.database.db.update(jobs).set({ workerId: gone }).where(eq(jobs.id, jobId));
      // Handed back (queued again, then taken by the live worker), or, after the last try, failed.
      await eventually(async () => {
        const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, jobId));
        return row?.workerId !== gone || row?.status === 'failed';
      });
      // The caught run gives up its slot; what it answers no longer counts.
      held.held[run - 1]?.();
    }
    const failed = await eventually(async () => {
      const job = (await client.get<JobView>(`/api/jobs/${jobId}`)).body;
      return job.status === 'failed' ? job : null;
    }, 30_000);
    expect(failed.error).toBe('Failed to generate image');
    expect(held.held).toHaveLength(3);
    expect(await tokensOf(client)).toBe(20);
    const entries = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(entries.map((e) => `${e.reason} ${e.delta}`).sort()).toEqual(['job -1', 'refund 1', 'signup 20']);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  }, 150_000);
});

describe('a worker stopped gracefully', () => {
  it('drops its lease, so the job it could not finish is run again as soon as a worker starts', async () => {
    const database = await createTestDatabase();
    const held = heldProvider(1);
    // The stop gives up on the held run at once rather than after the usual wait.
    const config = testConfig({ WORKER_STOP_WAIT_SECONDS: '0.1' });
    const firstLog = recordingLogger();
    const start = (provider: InferenceProvider, logger = quietLogger()) =>
      startBackend(config, logger, database, {
        inference: routerWith(provider),
        nsfwClassifier: NEUTRAL_CLASSIFIER,
      });
    const first = await start(held.provider, firstLog.logger);
    try {
      const backend = { ...first, app: first.app as NonNullable<typeof first.app>, config, database };
      const { client, id } = await verifiedUser(backend, 20);
      const started = await generateImage(client);
      expect(started.status).toBe(202);
      await eventually(async () => held.held.length === 1);
      // SIGTERM: the queue waits for the running job (here 0.1 s), gives up on it, and the lease goes.
      await first.stop();
      expect(await database.db.select().from(workerLeases)).toEqual([]);

      const second = await start(instantProvider());
      try {
        const done = await eventually(async () => {
          const [job] = await database.db.select().from(jobs).where(eq(jobs.id, started.body.jobId));
          return job?.status === 'succeeded' ? job : null;
        }, 30_000);
        expect(done.attempts).toBe(2);
        const entries = await database.db.select().from(ledger).where(eq(ledger.userId, id));
        expect(entries.map((e) => `${e.reason} ${e.delta}`).sort()).toEqual(['job -1', 'signup 20']);
        expect(await findLedgerMismatches(database.db)).toEqual([]);
      } finally {
        await second.stop();
      }
      // The first run gives up its hold only now: what it answers no longer counts, and it is over
      // (its last word logged) before the database closes.
      held.held[0]?.();
      await eventually(async () => firstLog.count(OUTCOME_DROPPED) === 1);
    } finally {
      held.held[0]?.();
      await database.drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('a job running past its expiry', () => {
  it('is handed back though its worker lives, as is one claimed before leases existed; a younger one is not', async () => {
    // Slots that do not poll during the test: only the sweep moves the jobs.
    const backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const { id: userId } = await verifiedUser(backend, 20);
      const live = randomUUID();
      await backend.database.db.insert(workerLeases).values({ id: live, host: 'here', pid: 1 });
      const charge = async (workerId: string | null, startedMinutesAgo: number) => {
        const { job } = await chargeTextToPicJob(backend, userId);
        await backend.database.db
          .update(jobs)
          .set({
            status: 'running',
            attempts: 1,
            workerId,
            startedAt: sql`now() - make_interval(mins => ${startedMinutesAgo})`,
          })
          .where(eq(jobs.id, job.id));
        return job.id;
      };
      const expired = await charge(live, 20);
      const beforeLeases = await charge(null, 20);
      const young = await charge(live, 1);
      const deps = { db: backend.database.db, logger: quietLogger() };
      expect(await handBackOrphanedJobs(deps, { leaseSeconds: 30, expireSeconds: 15 * 60 })).toBe(2);
      const rows = await backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(expired)).toMatchObject({ status: 'queued', attempts: 1, workerId: null, runAfter: null });
      expect(byId.get(beforeLeases)).toMatchObject({ status: 'queued', workerId: null });
      expect(byId.get(young)).toMatchObject({ status: 'running', workerId: live });
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });
});
