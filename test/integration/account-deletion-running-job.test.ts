// An account deleted while one of its jobs runs (issue 36, low 5): the request waiting for the job
// answers 410 (a job read: 404), never 500, and the worker stops computing for the deleted user at
// once in one process, or at its run's next check of the job's row from another process (cluster
// mode on PostgreSQL). The run then leaves the job alone (no finish, refund or retry), and the
// deleted user's ledger still adds up.

import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { files, jobs, ledger } from '../../src/server/db/schema';
import { type InferenceProvider, ProviderError, type ToolResult } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { Logger } from '../../src/server/log';
import { startBackend } from '../../src/server/system';
import { watchJobWaits } from '../support/job-waits';
import {
  createTestDatabase,
  eventually,
  recordingLogger,
  type TestBackend,
  type TestDatabase,
  testConfig,
} from '../support/test-backend';
import { routerWith, verifiedUser } from '../support/tool-fixtures';

/** A provider that runs until its signal aborts, then fails as a busy provider would (retryable). */
function untilAborted() {
  const signals: AbortSignal[] = [];
  const provider: InferenceProvider = {
    name: 'local',
    supports: () => true,
    run(_input, signal): Promise<ToolResult> {
      signals.push(signal);
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new ProviderError('run aborted', { retryable: true }))),
      );
    },
  };
  return { provider, signals };
}

/** What a run whose job was deleted logs as it ends (job-runner.ts): its last word, and no warning or error before it. */
const RUN_STOPPED = /deleted with its account; its run stopped/;

const generate = { prompt: 'a lighthouse at dusk', numOutputs: 1 };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  cleanups.push(() => db.drop());
  return db;
}

/** One process's back end (both roles unless `argv` says), logging to `logger`. */
async function start(
  db: TestDatabase,
  logger: Logger,
  provider: InferenceProvider,
  argv: string[] = [],
  env: Record<string, string> = {},
): Promise<TestBackend> {
  const config = testConfig(env, argv);
  const backend = await startBackend(config, logger, db, { inference: routerWith(provider) });
  cleanups.push(async () => {
    await backend.stop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });
  // A worker-only process has no app: its tests sign up through the web process.
  return { ...backend, app: backend.app ?? (null as never), config, database: db };
}

/** What deletion must leave: no job, no file, and a ledger that adds up with its charge unrefunded. */
async function expectNothingLeftAndLedgerSound(backend: TestBackend, userId: string) {
  const { db } = backend.database;
  expect(await db.select().from(jobs).where(eq(jobs.userId, userId))).toEqual([]);
  expect(await db.select().from(files).where(eq(files.userId, userId))).toEqual([]);
  const rows = await db.select().from(ledger).where(eq(ledger.userId, userId));
  expect(rows.map((r) => `${r.reason} ${r.delta}`).sort()).toEqual(['job -1', 'signup 20']);
  expect(await findLedgerMismatches(db)).toEqual([]);
}

describe('an account deleted while its job runs', () => {
  it('answers the waiting tool call 410 and a waiting job read 404, and stops the run at once', async () => {
    const db = await database();
    const { provider, signals } = untilAborted();
    const log = recordingLogger();
    const backend = await start(db, log.logger, provider);
    const waits = watchJobWaits(backend.signals);
    const { client, id } = await verifiedUser(backend, 20);

    const call = client.request<{ success: boolean; error: string }>('POST', '/api/generate-image', {
      body: generate,
      headers: { Prefer: 'wait=20' },
    });
    await eventually(async () => signals.length > 0);
    const [job] = await db.db.select().from(jobs).where(eq(jobs.userId, id));
    if (!job) throw new Error('no job');
    const read = client.request<{ error: string }>('GET', `/api/jobs/${job.id}`, { headers: { Prefer: 'wait=5' } });
    await eventually(async () => waits.waitingFor(job.id) === 2); // the call and the read are waiting

    expect((await client.request('DELETE', '/api/account')).status).toBe(204);
    // Stopped at once: the run's signal aborted before the deletion was answered.
    expect(signals[0]?.aborted).toBe(true);
    const answer = await call;
    expect(answer.status).toBe(410);
    expect(answer.body).toEqual({ success: false, error: TOOL_MESSAGES.jobDeleted });
    const readAnswer = await read;
    expect(readAnswer.status).toBe(404);
    expect(readAnswer.body).toEqual({ error: 'No such job' });

    // Once the run has ended: nothing tried it again, finished or refunded it.
    await eventually(async () => log.count(RUN_STOPPED) === 1);
    expect(signals).toHaveLength(1);
    await expectNothingLeftAndLedgerSound(backend, id);
    expect(log.problems()).toEqual([]);
  }, 30_000);

  it('stops a run whose job was deleted by another process at its next check', async () => {
    // The deletion made elsewhere: the job's row goes, and no signal of this process hears of it.
    const db = await database();
    const { provider, signals } = untilAborted();
    const log = recordingLogger();
    const backend = await start(db, log.logger, provider);
    const { client, id } = await verifiedUser(backend, 20);
    const call = await client.request<{ jobId: string }>('POST', '/api/generate-image', {
      body: generate,
      headers: { Prefer: 'wait=0' },
    });
    expect(call.status).toBe(202);
    await eventually(async () => signals.length > 0);

    await db.db.delete(jobs).where(eq(jobs.id, call.body.jobId));
    // No signal of this process hears of it: the run's next check of the row finds it gone.
    await eventually(async () => signals[0]?.aborted);

    await eventually(async () => log.count(RUN_STOPPED) === 1);
    expect(signals).toHaveLength(1);
    expect(log.problems()).toEqual([]);
    const rows = await db.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(rows.map((r) => `${r.reason} ${r.delta}`).sort()).toEqual(['job -1', 'signup 20']);
  }, 30_000);

  it.runIf(inject('postgresTemplate') !== null)(
    'in cluster mode: the web process answers 410, the worker process stops the run at its next check',
    async () => {
      const db = await database();
      const { provider, signals } = untilAborted();
      const log = recordingLogger();
      // Separate processes share the database and nothing else: their signals meet only through it.
      const env = { DATABASE_URL: 'postgres://unused-the-database-is-given', BETTER_AUTH_SECRET: 'x'.repeat(32) };
      const worker = await start(db, log.logger, provider, ['--worker'], env);
      const web = await start(db, log.logger, provider, ['--web'], env);
      const { client, id } = await verifiedUser(web, 20);

      const call = client.request<{ success: boolean; error: string }>('POST', '/api/generate-image', {
        body: generate,
        headers: { Prefer: 'wait=20' },
      });
      await eventually(async () => signals.length > 0);
      expect((await client.request('DELETE', '/api/account')).status).toBe(204);
      const answer = await call;
      expect(answer.status).toBe(410);
      expect(answer.body).toEqual({ success: false, error: TOOL_MESSAGES.jobDeleted });
      await eventually(async () => signals[0]?.aborted);

      await eventually(async () => log.count(RUN_STOPPED) === 1);
      expect(signals).toHaveLength(1);
      await expectNothingLeftAndLedgerSound(worker, id);
      expect(log.problems()).toEqual([]);
    },
    30_000,
  );
});
