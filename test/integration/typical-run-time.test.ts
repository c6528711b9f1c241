// "Usually about 0:30" (issue 17, honest progress): a waiting or running job carries how long its
// tool on its provider took lately, the median of the last 20 good runs, once 3 have finished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import { createTypicalRunTime } from '../../src/server/jobs/views/typical-run-time';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { instantProvider, routerWith, verifiedUser } from '../support/tool-fixtures';

type Pending = { status: string; jobId: string; typicalSeconds: number | null };
type Detail = { status: string; typicalSeconds: number | null };

let backend: TestBackend;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(instantProvider({ until: held })) });
});
afterAll(async () => {
  release();
  await backend.stop();
});

/** Finished jobs of `tool` on `provider`, each taking the given seconds, the first the newest. */
async function history(
  userId: string,
  tool: string,
  provider: string,
  seconds: number[],
  status: 'succeeded' | 'failed' = 'succeeded',
) {
  const now = Date.now();
  await backend.database.db.insert(jobs).values(
    seconds.map((run, i) => {
      const finishedAt = new Date(now - 1000 - i * 60_000);
      return {
        userId,
        tool,
        cost: 1,
        charged: 1,
        input: {},
        provider,
        requestHash: 'history',
        status,
        startedAt: new Date(finishedAt.getTime() - run * 1000),
        finishedAt,
      };
    }),
  );
}

const running = { status: 'running' as const, tool: 'colorizer', provider: 'replicate' };

describe('the typical run time', () => {
  it('is the median of the last 20 good runs of the same tool and provider, and unknown below 3', async () => {
    const { id } = await verifiedUser(backend);
    const typical = createTypicalRunTime(backend.database.db);
    await history(id, 'colorizer', 'replicate', [10, 30]);
    await history(id, 'colorizer', 'replicate', [500, 500, 500], 'failed'); // failures say nothing
    await history(id, 'colorizer', 'local', [900, 900, 900]); // another provider
    await history(id, 'fix-a-face', 'replicate', [900, 900, 900]); // another tool
    const job = { ...running } as Parameters<typeof typical>[0];
    expect(await typical(job)).toBeNull();

    const fresh = createTypicalRunTime(backend.database.db);
    await history(id, 'colorizer', 'replicate', [20.4]);
    expect(await fresh(job)).toBe(20); // median of 10, 20.4 and 30, in whole seconds
  });

  it('is cached for a minute, and says nothing for a finished job', async () => {
    const { id } = await verifiedUser(backend);
    let clock = 0;
    const typical = createTypicalRunTime(backend.database.db, () => clock);
    const job = { ...running, tool: 'text-lab' } as Parameters<typeof typical>[0];
    await history(id, 'text-lab', 'replicate', [4, 4, 4]);
    expect(await typical(job)).toBe(4);
    await history(id, 'text-lab', 'replicate', [60, 60, 60, 60, 60]); // newer and slower
    expect(await typical(job)).toBe(4);
    clock += 61_000;
    expect(await typical(job)).toBe(60);
    expect(await typical({ ...job, status: 'succeeded' })).toBeNull();
  });

  it('is known within seconds of the third good run, though asked about before it (issue 54)', async () => {
    const { id } = await verifiedUser(backend);
    let clock = 0;
    const typical = createTypicalRunTime(backend.database.db, () => clock);
    const job = { ...running, tool: 'background-swap' } as Parameters<typeof typical>[0];
    await history(id, 'background-swap', 'replicate', [12, 12]);
    expect(await typical(job)).toBeNull(); // the first job of a new server's tool asks now
    await history(id, 'background-swap', 'replicate', [12]);
    clock += 6_000;
    expect(await typical(job)).toBe(12);
  });

  it('comes with the 202 of a call still running and with GET /api/jobs/:id, then goes', async () => {
    const { client, id } = await verifiedUser(backend);
    await history(id, 'text-to-pic', 'local', [7, 9, 8]);
    const answer = await client.request<Pending>('POST', '/api/generate-image', {
      body: { prompt: 'a lighthouse at dusk', aspectRatio: '1:1', numOutputs: 1, quality: 'low' },
      headers: { prefer: 'wait=0' },
    });
    expect(answer.status).toBe(202);
    expect(answer.body.typicalSeconds).toBe(8);
    const view = async () => (await client.request<Detail>('GET', `/api/jobs/${answer.body.jobId}`)).body;
    expect((await view()).typicalSeconds).toBe(8);

    release();
    await expect.poll(async () => (await view()).status, { timeout: 15_000 }).toBe('succeeded');
    expect((await view()).typicalSeconds).toBeNull();
  });
});
