// The tool-run queue consumed by our own statements (jobs/tool-workers.ts, decision 027): the take
// of a job claims its row in the same statement, the finish completes the queue's job, and pg-boss's
// own machinery (retry after a delay, completion state, the dead letter) sees the same rows it
// would have written itself. Run against the installed pg-boss, so an upgrade that changes its
// tables fails here.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import { type InferenceProvider, ProviderError, type ToolResult } from '../../src/server/inference/provider';
import { markSucceeded, takeNextJob } from '../../src/server/jobs/jobs-repository';
import { QUEUE_NAMES, QUEUE_SCHEMA } from '../../src/server/jobs/queue';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { chargeTextToPicJob, instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const generate = { prompt: 'a lighthouse at dusk', numOutputs: 1 };

/** The queue's own record of a tool job: its state and the tries pg-boss counted. */
async function queueJob(backend: TestBackend, jobId: string) {
  const { rows } = await backend.database.executeSql(
    `select state, retry_count, started_on is not null as started, completed_on is not null as completed
     from ${QUEUE_SCHEMA}.job where name = $1 and id = $2`,
    [QUEUE_NAMES.toolRun, jobId],
  );
  return rows[0] ?? null;
}

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

/** What pg-boss decides for a job when it is sent: everything but its id, data and times. */
async function sentAs(backend: TestBackend, queueJobId: string) {
  const { rows } = await backend.database.executeSql(
    `select name, priority, state, retry_limit, retry_delay, retry_backoff, expire_in::text, dead_letter, policy,
       singleton_key, singleton_on, (keep_until - start_after)::text as kept_for, data ? 'jobId' as carries_job_id
     from ${QUEUE_SCHEMA}.job where name = $1 and id = $2`,
    [QUEUE_NAMES.toolRun, queueJobId],
  );
  return rows[0] ?? null;
}

describe('the tool-run queue', () => {
  it('sends a tool job exactly as pg-boss’s own send would, with the row’s id and its round', async () => {
    // A provider held until the end, so the queue's record is looked at before a run completes it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const backend = await createTestBackend({ inference: routerWith(instantProvider({ until: held })) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.request<{ jobId: string }>('POST', '/api/generate-image', {
        body: generate,
        headers: { prefer: 'wait=0' },
      });
      expect(response.status).toBe(202);
      const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, response.body.jobId));
      const ours = await sentAs(backend, response.body.jobId);
      const reference = randomUUID();
      await backend.queue.send(
        QUEUE_NAMES.toolRun,
        { jobId: randomUUID() },
        { id: reference, priority: 0 - (row?.queueRound ?? 0) },
      );
      expect(ours).toEqual({ ...(await sentAs(backend, reference)), state: ours?.state });
      expect(ours).toMatchObject({
        priority: 0 - (row?.queueRound ?? 0),
        dead_letter: QUEUE_NAMES.toolRunDead,
        carries_job_id: true,
      });
    } finally {
      release();
      await backend.stop();
    }
  });

  it('completes the queue’s job with the run that finished the tool job, in one try', async () => {
    const backend = await createTestBackend({ inference: routerWith(instantProvider()) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string; status: string }>('/api/generate-image', generate);
      expect(response.status).toBe(200);
      const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, response.body.jobId));
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(row?.workerId).toBeTruthy();
      expect(await queueJob(backend, response.body.jobId)).toEqual({
        state: 'completed',
        retry_count: 0,
        started: true,
        completed: true,
      });
    } finally {
      await backend.stop();
    }
  });

  it('lets the queue try a busy provider again after its delay, and charges once', async () => {
    const backend = await createTestBackend({ inference: routerWith(flakyProvider(1)) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string }>('/api/generate-image', generate);
      const jobId = response.body.jobId;
      const done = await eventually(async () => {
        const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, jobId));
        return row?.status === 'succeeded' ? row : null;
      }, 30_000);
      expect(done.attempts).toBe(2);
      expect(await queueJob(backend, jobId)).toMatchObject({ state: 'completed', retry_count: 1 });
      expect(await tokensOf(client)).toBe(19);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  }, 40_000);

  it('completes the queue’s job of a run that failed for good, and refunds it', async () => {
    const backend = await createTestBackend({ inference: routerWith(flakyProvider(1, false)) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string; refunded: boolean }>('/api/generate-image', generate);
      expect(response.status).toBe(502);
      expect(response.body.refunded).toBe(true);
      const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, response.body.jobId));
      expect(row?.status).toBe('failed');
      expect(await queueJob(backend, response.body.jobId)).toMatchObject({ state: 'completed', retry_count: 0 });
      expect(await tokensOf(client)).toBe(20);
    } finally {
      await backend.stop();
    }
  });

  it('completes a second delivery of a finished job without running it again', async () => {
    const provider = instantProvider();
    const backend = await createTestBackend({ inference: routerWith(provider) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const first = await client.post<{ jobId: string }>('/api/generate-image', generate);
      expect(first.status).toBe(200);
      const runs = provider.calls.length;
      // The same tool job delivered again under another queue id (as a requeue by hand would).
      const again = randomUUID();
      await backend.queue.send(QUEUE_NAMES.toolRun, { jobId: first.body.jobId }, { id: again });
      await eventually(async () => (await queueJob(backend, again))?.state === 'completed');
      expect(provider.calls.length).toBe(runs);
      const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, first.body.jobId));
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await tokensOf(client)).toBe(19);
    } finally {
      await backend.stop();
    }
  });

  it('hands a job charged while a worker here is idle straight to it: claimed in the charge, no take', async () => {
    const backend = await createTestBackend({ inference: routerWith(instantProvider()) });
    try {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string }>('/api/generate-image', generate);
      expect(response.status).toBe(200);
      // A take starts the queue's job in a later transaction; the hand-over in the statement that made it.
      const { rows } = await backend.database.executeSql(
        `select started_on = created_on as started_at_charge, state from ${QUEUE_SCHEMA}.job where name = $1 and id = $2`,
        [QUEUE_NAMES.toolRun, response.body.jobId],
      );
      expect(rows).toEqual([{ started_at_charge: true, state: 'completed' }]);
      const [row] = await backend.database.db.select().from(jobs).where(eq(jobs.id, response.body.jobId));
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
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
      expect(first.handedOver).toMatchObject({ jobId: first.job.id, retriesLeft: true, moreWaiting: false });
      expect(first.job).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      const [stored] = await backend.database.db.select().from(jobs).where(eq(jobs.id, first.job.id));
      expect(stored).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      expect(stored?.startedAt).toEqual(first.job.startedAt);
      expect(await queueJob(backend, first.job.id)).toEqual({
        state: 'active',
        retry_count: 0,
        started: true,
        completed: false,
      });

      const queued = await charge(null);
      expect(queued.handedOver).toBeNull();
      const behind = await charge({ workerId: lease });
      expect(behind.handedOver).toBeNull();
      expect(behind.job).toMatchObject({ status: 'queued', attempts: 0, workerId: null, startedAt: null });
      expect(await queueJob(backend, behind.job.id)).toMatchObject({ state: 'created', started: false });
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
      const run = { attempt: 1, queueJobId: first.job.id };
      const change = { result: { files: [] }, provider: 'demo', outputs: [] };
      const { finished, next } = await markSucceeded(backend.database.db, first.job, change, {
        run,
        takeNextFor: { workerId: lease },
      });
      expect(finished?.balance).toBe(18);
      expect(next).toMatchObject({ jobId: second.job.id, retriesLeft: true, moreWaiting: false });
      expect(next?.job).toMatchObject({ id: second.job.id, status: 'running', attempts: 1, workerId: lease });
      const rows = await backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(first.job.id)).toMatchObject({ status: 'succeeded' });
      expect(byId.get(second.job.id)).toMatchObject({ status: 'running', attempts: 1, workerId: lease });
      // One statement: the one finished when the next started.
      expect(byId.get(second.job.id)?.startedAt).toEqual(byId.get(first.job.id)?.finishedAt);
      expect(await queueJob(backend, first.job.id)).toMatchObject({ state: 'completed' });
      expect(await queueJob(backend, second.job.id)).toMatchObject({ state: 'active', retry_count: 0 });

      // Nothing else waits: the finish takes nothing, and a finish that no longer holds its job still takes.
      const finishSecond = () =>
        markSucceeded(backend.database.db, second.job, change, {
          run: { attempt: 1, queueJobId: second.job.id },
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
