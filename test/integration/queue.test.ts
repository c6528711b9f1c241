import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingWorker } from '../../src/server/jobs/ping';
import { QUEUE_NAMES, startQueue, stopQueue } from '../../src/server/jobs/queue';
import { quietLogger } from '../../src/server/log';
import { createTestBackend, createTestDatabase, type TestBackend } from '../support/test-backend';

describe('job queue', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('carries a ping job to the worker and its answer back', async () => {
    const answer = await pingWorker(backend.queue, 15_000);
    expect(answer).not.toBeNull();
    expect(answer?.workerId).toMatch(/:\d+$/);
    expect(new Date(answer?.answeredAt ?? 0).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps the job and its output in the database', async () => {
    const id = await backend.queue.send(QUEUE_NAMES.ping, { nonce: 'kept' });
    expect(id).toBeTruthy();
    let state = '';
    for (let i = 0; i < 100 && state !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const job = await backend.queue.getJobById(QUEUE_NAMES.ping, id as string);
      state = job?.state ?? '';
      if (state === 'completed') expect(job?.output).toMatchObject({ nonce: 'kept' });
    }
    expect(state).toBe('completed');
    const { rows } = await backend.database.executeSql(`select state from pgboss.job where id = $1`, [id]);
    expect(rows).toEqual([{ state: 'completed' }]);
  });
});

describe('a web-only process', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
    // Stop this backend's worker: what remains sends jobs but answers none, as `--web` does.
    await backend.queue.offWork(QUEUE_NAMES.ping);
  });
  afterAll(() => backend.stop());

  it('gets no answer to a ping, and the job waits in the queue', async () => {
    expect(await pingWorker(backend.queue, 1_500)).toBeNull();
    const body = await (await backend.app.request('/api/health')).json();
    expect(body.queue.waiting['system-ping']).toBe(1);
  });
});

describe('a deep queue', () => {
  let backend: TestBackend;
  const queue = 'deep-queue-check';
  beforeAll(async () => {
    backend = await createTestBackend();
    await backend.queue.createQueue(queue);
    // A backlog over 50 fair-queue rounds, as a busy day leaves it (priority = -round).
    const backlog = Array.from({ length: 3000 }, (_, i) => ({ name: queue, data: { i }, priority: -(i % 50) - 1 }));
    await backend.queue.insert(backlog);
    await backend.queue.send(queue, { i: 'next' }, { priority: 0 });
    await backend.database.executeSql('analyze pgboss.job');
  });
  afterAll(() => backend.stop());

  it("reads the next job from an index in the fetch's order instead of sorting the backlog", async () => {
    const { rows } = await backend.database.executeSql(
      `explain select id from pgboss.job where name = '${queue}' and state < 'active' and start_after < now()
       order by priority desc, created_on, id limit 1 for update skip locked`,
    );
    const plan = rows.map((row) => Object.values(row).join(' ')).join('\n');
    expect(plan).toMatch(/Index Scan/);
    expect(plan).not.toMatch(/Sort/);
  });

  it('still hands out the highest priority first', async () => {
    let job: { data: unknown } | undefined;
    for (let tries = 0; !job && tries < 50; tries++)
      [job] = await backend.queue.fetch(queue, { batchSize: 1, priority: true });
    expect(job?.data).toEqual({ i: 'next' });
  });
});

describe('a queue whose handler outlives its stop', () => {
  it('lets pg-boss fail the job once the database is closed, without an unhandled rejection', async () => {
    const database = await createTestDatabase();
    const queue = await startQueue(database, quietLogger());
    await stopQueue(queue);
    await database.drop();
    // What pg-boss's worker does, without awaiting it, when a handler that outlived the stop throws.
    const id = randomUUID();
    await expect(queue.fail(QUEUE_NAMES.accountSetup, id)).resolves.toEqual({ jobs: [id], requested: 1, affected: 0 });
  });
});
