// The tool-run queue is the `jobs` table itself (jobs/worker/tool-workers.ts, decision 037): a job waits as
// `queued`, a worker's take claims the first due one in one statement, a finish may take the next,
// a run that throws queues its job again after the retry's delay, and the last try refunds.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { jobs } from '../../src/server/db/schema';
import { type InferenceProvider, ProviderError, type ToolResult } from '../../src/server/inference/provider';
import { markSucceeded, TOOL_RUN_TRIES, takeNextJob } from '../../src/server/jobs/queue/jobs-repository';
import { tryAgainOrRefund } from '../../src/server/jobs/worker/job-runner';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { chargeTextToPicJob, instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const generate = { prompt: 'a lighthouse at dusk', numOutputs: 1 };

/** Fails the first `failures` runs with a retryable error, then answers like the instant provider. */
function flakyProvider(failures: number, retryable = true): InferenceProvider {
  const instant = instantProvider();
  let runs = 0;
  return {
    ...instant,
    async run(input, signal): Promise<ToolResult> {
      runs++;
      if (runs <= failures) throw new ProviderError('provider busy', { retryable });
      return instant.run(input, signal);
    },
  };
}

async function jobRow(backend: TestBackend, jobId: string) {
  const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  return row;
}

/**
 * When a job queued again is due, in seconds after its last run began (which came before the retry
 * was written: at least the delay) and after now (which comes after it: at most the delay's longest).
 * Bounds that hold however long the machine took between the statements. Null: due at once.
 */
async function dueAfter(backend: TestBackend, jobId: string): Promise<{ runStarted: number; now: number } | null> {
  const { rows } = await backend.database.executeSql(
    `select extract(epoch from run_after - started_at)::float8 as run_started,
       extract(epoch from run_after - now())::float8 as now from jobs where id = $1`,
    [jobId],
  );
  const [row] = rows;
  return row?.run_started == null ? null : { runStarted: Number(row.run_started), now: Number(row.now) };
}

describe('the tool-run queue', () => {
  it('runs a tool job from its row in one try, claimed by a worker of this process', async () => {
    const backend = await createTestBackend({ inference: routerWith(instantProvider()) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string; status: string }>('/api/generate-image', generate);
      expect(response.status).toBe(200);
      const row = await jobRow(backend, response.body.jobId);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1, runAfter: null });
      expect(row?.workerId).toBeTruthy();
      expect(await tokensOf(client)).toBe(19);
    } finally {
      await backend.stop();
    }
  });

  it('tries a busy provider again after its delay, and charges once', async () => {
    const backend = await createTestBackend({ inference: routerWith(flakyProvider(1)) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string; success: boolean; balance: number }>(
        '/api/generate-image',
        generate,
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, balance: 19 });
      expect(await jobRow(backend, response.body.jobId)).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  }, 40_000);

  it('fails a job for good at once when its provider says so, and refunds it', async () => {
    const backend = await createTestBackend({ inference: routerWith(flakyProvider(1, false)) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string; refunded: boolean }>('/api/generate-image', generate);
      expect(response.status).toBe(502);
      expect(response.body.refunded).toBe(true);
      expect(await jobRow(backend, response.body.jobId)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(await tokensOf(client)).toBe(20);
    } finally {
      await backend.stop();
    }
  });

  it('queues a run that threw again, not due before its delay, and refunds the last try instead', async () => {
    // Slots that do not poll during the test: only what the statements do counts.
    const backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const { id: userId, client } = await verifiedUser(backend, 20);
      const deps = { db: backend.database.db, logger: quietLogger() };
      // The worker's delay when TOOL_RETRY_DELAY_SECONDS is not set: the tool job's retry policy's, 5 s.
      const backoff = { delaySeconds: loadConfig({}).toolRetryDelaySeconds };
      const lease = randomUUID();
      const { job } = await chargeTextToPicJob(backend, userId);
      for (let attempt = 1; attempt < TOOL_RUN_TRIES; attempt++) {
        const taken = await takeNextJob(backend.database.db, lease);
        expect(taken?.job).toMatchObject({ id: job.id, status: 'running', attempts: attempt, workerId: lease });
        expect(await tryAgainOrRefund(deps, taken?.job ?? job, backoff)).toBe('retried');
        expect(await jobRow(backend, job.id)).toMatchObject({ status: 'queued', workerId: null });
        // 5 s after the first run, 10 s after the second, each up to twice that.
        const due = await dueAfter(backend, job.id);
        const delay = 5 * 2 ** (attempt - 1);
        expect(due?.runStarted).toBeGreaterThanOrEqual(delay);
        expect(due?.now).toBeLessThanOrEqual(2 * delay);
        expect(await takeNextJob(backend.database.db, lease)).toBeNull();
        await backend.database.db.update(jobs).set({ runAfter: sql`now() - interval '1 second'` });
      }
      const last = await takeNextJob(backend.database.db, lease);
      expect(last?.job.attempts).toBe(TOOL_RUN_TRIES);
      // A run that no longer holds the job changes nothing.
      expect(await tryAgainOrRefund(deps, { ...job, attempts: 1 }, backoff)).toBeNull();
      expect(await tryAgainOrRefund(deps, last?.job ?? job, backoff)).toBe('refunded');
      expect(await jobRow(backend, job.id)).toMatchObject({ status: 'failed', error: 'Failed to generate image' });
      expect(await takeNextJob(backend.database.db, lease)).toBeNull();
      expect(await tokensOf(client)).toBe(20);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });

  it('waits the delay TOOL_RETRY_DELAY_SECONDS sets before a retry', async () => {
    const backend = await createTestBackend({
      env: { TOOL_RETRY_DELAY_SECONDS: '40', TOOL_WAIT_SECONDS: '0' },
      inference: routerWith(flakyProvider(1)),
    });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string }>('/api/generate-image', generate);
      expect(response.status).toBe(202);
      // The worker's first run threw: the job waits out the setting's delay, up to twice it at random.
      const due = await eventually(async () => {
        const row = await jobRow(backend, response.body.jobId);
        return row?.status === 'queued' && row.attempts === 1 ? dueAfter(backend, row.id) : undefined;
      });
      expect(due.runStarted).toBeGreaterThanOrEqual(40);
      expect(due.now).toBeLessThanOrEqual(80);
    } finally {
      await backend.stop();
    }
  });

  it('takes waiting jobs in the fair queue’s order, passing over one that waits out its delay', async () => {
    const backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const { id: userId } = await verifiedUser(backend, 20);
      const lease = randomUUID();
      const first = await chargeTextToPicJob(backend, userId);
      const second = await chargeTextToPicJob(backend, userId);
      const third = await chargeTextToPicJob(backend, userId);
      // The user's jobs go into later and later rounds: the queue takes them oldest round first.
      expect([first, second, third].map((c) => c.job.queueRound)).toEqual(
        [0, 1, 2].map((i) => first.job.queueRound + i),
      );
      await backend.database.db
        .update(jobs)
        .set({ runAfter: sql`now() + interval '1 minute'` })
        .where(eq(jobs.id, first.job.id));
      const a = await takeNextJob(backend.database.db, lease);
      expect(a).toMatchObject({ jobId: second.job.id, moreWaiting: true });
      const b = await takeNextJob(backend.database.db, lease);
      expect(b).toMatchObject({ jobId: third.job.id, moreWaiting: false });
      expect(await takeNextJob(backend.database.db, lease)).toBeNull();
      expect(await jobRow(backend, first.job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      await backend.stop();
    }
  });

  it('hands a job charged while a worker here is idle straight to it: claimed in the charge, no take', async () => {
    // Slots that look once at start and then sleep: with the tests' half-second poll, a loaded machine
    // met the call while the slot was in a look of its own (not idle, so no hand-over).
    const backend = await createTestBackend({
      env: { QUEUE_POLL_SECONDS: '60' },
      inference: routerWith(instantProvider()),
    });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string }>('/api/generate-image', generate);
      expect(response.status).toBe(200);
      // A take starts the job in a later transaction; the hand-over in the statement that made it.
      const row = await jobRow(backend, response.body.jobId);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(row?.startedAt).toEqual(row?.createdAt);
      expect(row?.workerId).toBeTruthy();
      expect(await tokensOf(client)).toBe(19);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });

  it('claims a job for a waiting worker only when no other job waits, so the queue stays in order', async () => {
    // Slots that do not poll during the test: only what the statements do counts.
    const backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const { id: userId } = await verifiedUser(backend, 20);
      const charge = (worker: { workerId: string | null } | null) => chargeTextToPicJob(backend, userId, worker);
      const lease = randomUUID();
      const first = await charge({ workerId: lease });
      expect(first.handedOver).toMatchObject({ jobId: first.job.id, moreWaiting: false });
      expect(first.job).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      const [stored] = await backend.database.db.select().from(jobs).where(eq(jobs.id, first.job.id));
      expect(stored).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      expect(stored?.startedAt).toEqual(first.job.startedAt);

      const queued = await charge(null);
      expect(queued.handedOver).toBeNull();
      const behind = await charge({ workerId: lease });
      expect(behind.handedOver).toBeNull();
      expect(behind.job).toMatchObject({ status: 'queued', attempts: 0, workerId: null, startedAt: null });
      expect(await jobRow(backend, behind.job.id)).toMatchObject({ status: 'queued', attempts: 0, workerId: null });
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });

  it('takes the next waiting job in the statement that finishes the last one, and only one that waits', async () => {
    const backend = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const { id: userId } = await verifiedUser(backend, 20);
      const charge = () => chargeTextToPicJob(backend, userId);
      const lease = randomUUID();
      // Slots that do not poll during the test: whatever they took first is handed back to the
      // statements below (the slots sleep until their next poll, a minute away).
      const first = await charge();
      const second = await charge();
      const firstTaken = await takeNextJob(backend.database.db, lease);
      expect(firstTaken).toMatchObject({ jobId: first.job.id, moreWaiting: true });
      const run = { attempt: 1 };
      const change = { result: { files: [] }, provider: 'demo', outputs: [] };
      const { finished, next } = await markSucceeded(backend.database.db, first.job, change, {
        run,
        takeNextFor: { workerId: lease },
      });
      expect(finished?.balance).toBe(18);
      expect(next).toMatchObject({ jobId: second.job.id, moreWaiting: false });
      expect(next?.job).toMatchObject({ id: second.job.id, status: 'running', attempts: 1, workerId: lease });
      const rows = await backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(first.job.id)).toMatchObject({ status: 'succeeded' });
      expect(byId.get(second.job.id)).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      // One statement: the one finished when the next started.
      expect(byId.get(second.job.id)?.startedAt).toEqual(byId.get(first.job.id)?.finishedAt);

      // Nothing else waits: the finish takes nothing, and a finish that no longer holds its job still takes.
      const finishSecond = () =>
        markSucceeded(backend.database.db, second.job, change, {
          run: { attempt: 1 },
          takeNextFor: { workerId: lease },
        });
      expect(await finishSecond()).toMatchObject({ finished: { balance: 18 }, next: null });
      const third = await charge();
      const stale = await finishSecond();
      expect(stale.finished).toBeNull();
      expect(stale.next).toMatchObject({ jobId: third.job.id, job: { status: 'running', workerId: lease } });
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });

  it('runs a backlog with one slot, each job taken by the finish of the one before it', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const backend = await createTestBackend({
      inference: routerWith(instantProvider({ until: held })),
      env: { WORKER_CONCURRENCY: '1' },
    });
    try {
      const { client } = await verifiedUser(backend, 20);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await client.request<{ jobId: string }>('POST', '/api/generate-image', {
          body: generate,
          headers: { prefer: 'wait=0' },
        });
        expect(response.status).toBe(202);
        ids.push(response.body.jobId);
      }
      release();
      await eventually(async () => {
        const rows = await backend.database.db.select().from(jobs);
        return rows.filter((row) => row.status === 'succeeded').length === 4;
      });
      const rows = await backend.database.db.select().from(jobs);
      const byId = new Map(rows.map((row) => [row.id, row]));
      // The first was taken by the slot; each later one started in the statement that finished the one before.
      for (let i = 1; i < ids.length; i++) {
        expect(byId.get(ids[i] as string)?.startedAt, `job ${i}`).toEqual(byId.get(ids[i - 1] as string)?.finishedAt);
        expect(byId.get(ids[i] as string)?.attempts).toBe(1);
      }
      expect(await tokensOf(client)).toBe(16);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      release();
      await backend.stop();
    }
  });
});
