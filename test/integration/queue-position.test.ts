// A job that waits for a busy worker says where it stands: the web asks for a short wait
// (Prefer: wait=N), gets 202 with the job id, and follows the job's status and queue position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitMsFor } from '../../src/server/tools/routes';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { instantProvider, routerWith, verifiedUser } from '../support/tool-fixtures';

type Answer = { success: boolean; pending?: boolean; jobId: string; status: string; queuePosition: number | null };
type View = { status: string; queuePosition: number | null };

let backend: TestBackend;
beforeAll(async () => {
  // Each job takes 2.5 s and a worker process runs two at a time: the third and fourth wait.
  backend = await createTestBackend({ inference: routerWith(instantProvider({ delayMs: 2500 })) });
});
afterAll(() => backend.stop());

describe('queue position', () => {
  it('answers at once with Prefer: wait=0, then reports each waiting job its place in line', async () => {
    const { client } = await verifiedUser(backend);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      const answer = await client.request<Answer>('POST', '/api/generate-image', {
        body: { prompt: `lighthouse ${i}`, aspectRatio: '1:1', numOutputs: 1, quality: 'low' },
        headers: { prefer: 'wait=0' },
      });
      expect(answer.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answer.body.pending).toBe(true);
      ids.push(answer.body.jobId);
    }
    const view = async (id: string) => (await client.request<View>('GET', `/api/jobs/${id}`)).body;

    await expect.poll(async () => (await view(ids[1] as string)).status, { timeout: 5000 }).toBe('running');
    expect(await view(ids[0] as string)).toMatchObject({ status: 'running', queuePosition: null });
    expect(await view(ids[2] as string)).toMatchObject({ status: 'queued', queuePosition: 1 });
    expect(await view(ids[3] as string)).toMatchObject({ status: 'queued', queuePosition: 2 });

    for (const id of ids) {
      await expect.poll(async () => (await view(id)).status, { timeout: 15_000 }).toBe('succeeded');
      expect((await view(id)).queuePosition).toBeNull();
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
