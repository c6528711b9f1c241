// A job that waits for a busy worker says where it stands: the web asks for a short wait
// (Prefer: wait=N), gets 202 with the job id, and follows the job's status and queue position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_AHEAD_COUNTED_UP_TO } from '../../src/contract/tool-responses';
import { findJob } from '../../src/server/jobs/queue/jobs-repository';
import { queuePosition, waitMsFor } from '../../src/server/jobs/views/job-view';
import { createTestBackend, createTestDatabase, type TestBackend } from '../support/test-backend';
import { instantProvider, routerWith, verifiedUser } from '../support/tool-fixtures';

type Answer = { success: boolean; pending?: boolean; jobId: string; status: string; queuePosition: number | null };
type View = { status: string; queuePosition: number | null };

let backend: TestBackend;
let letRunsEnd: () => void = () => {};
/** Every run holds until the test lets them end; a worker process runs two at a time: the third and fourth wait. */
const provider = instantProvider({ until: new Promise<void>((resolve) => (letRunsEnd = resolve)) });
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(provider) });
});
afterAll(async () => {
  letRunsEnd();
  await backend.stop();
});

describe('queue position', () => {
  it('answers at once with Prefer: wait=0, then reports each waiting job its place in line', async () => {
    const { client } = await verifiedUser(backend);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      // Answered while no run can end: a call that waited for its job would never answer.
      const answer = await client.request<Answer>('POST', '/api/generate-image', {
        body: { prompt: `lighthouse ${i}`, aspectRatio: '1:1', numOutputs: 1, quality: 'low' },
        headers: { prefer: 'wait=0' },
      });
      expect(answer.status).toBe(202);
      expect(answer.body.pending).toBe(true);
      ids.push(answer.body.jobId);
    }
    const view = async (id: string) => (await client.request<View>('GET', `/api/jobs/${id}`)).body;

    await expect.poll(() => provider.calls.length).toBe(2);
    expect(await view(ids[0] as string)).toMatchObject({ status: 'running', queuePosition: null });
    // The local engine runs one job per model at a time: the second holds a slot and waits for it.
    expect(await view(ids[1] as string)).toMatchObject({ status: 'running', queuePosition: 1 });
    expect(await view(ids[2] as string)).toMatchObject({ status: 'queued', queuePosition: 2 });
    expect(await view(ids[3] as string)).toMatchObject({ status: 'queued', queuePosition: 3 });

    letRunsEnd();
    for (const id of ids) {
      await expect.poll(async () => (await view(id)).status, { timeout: 15_000 }).toBe('succeeded');
      expect((await view(id)).queuePosition).toBeNull();
    }
  });

  it('counts at most 1,000 jobs ahead in a deep queue, reading no further', async () => {
    const database = await createTestDatabase();
    try {
      // 1,200 jobs of 100 users wait in earlier rounds; then the last one's, and one in the middle.
      await database.executeSql(`
        insert into "user" (id, name, email) select 'deep-' || i, 'D', 'deep-' || i || '@example.com' from generate_series(0, 99) as i;
        insert into jobs (user_id, tool, cost, charged, input, provider, request_hash, queue_round, created_at)
          select 'deep-' || (i % 100), 'text-to-pic', 1, 1, '{}'::jsonb, 'replicate', 'h', i / 100,
            now() - interval '1 hour' + make_interval(secs => i)
          from generate_series(0, 1200) as i`);
      const jobAt = async (order: string) => {
        const { rows } = await database.executeSql(`select id from jobs ${order} limit 1`);
        const job = await findJob(database.db, String(rows[0]?.id));
        if (!job) throw new Error('no job');
        return job;
      };
      const last = await jobAt('order by queue_round desc, created_at desc');
      const middle = await jobAt('order by queue_round, created_at offset 500');
      expect(await queuePosition(database.db, middle)).toBe(501);
      expect(await queuePosition(database.db, last)).toBe(QUEUE_AHEAD_COUNTED_UP_TO + 1);
    } finally {
      await database.drop();
    }
  });

  it('never waits longer than the server allows, whatever the client asks', () => {
    expect(waitMsFor(undefined, 55_000)).toBe(55_000);
    expect(waitMsFor('wait=4', 55_000)).toBe(4_000);
    expect(waitMsFor('respond-async, wait=0', 55_000)).toBe(0);
    expect(waitMsFor('wait=600', 55_000)).toBe(55_000);
    expect(waitMsFor('wait=abc', 55_000)).toBe(55_000);
    expect(waitMsFor('handling=lenient', 55_000)).toBe(55_000);
  });
});
