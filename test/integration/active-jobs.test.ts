// GET /api/jobs?status=active (issue 38): the caller's jobs still queued or running, so that a page
// loaded (or reloaded) while they run can say when each finishes. The caller's own only, and single
// calls only: a batch's images are followed on their batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobList } from '../../src/contract/tool-responses';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

const generate = { prompt: 'a lighthouse at dusk', numOutputs: 1 };

describe('the jobs in progress', () => {
  let backend: TestBackend;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  beforeAll(async () => {
    backend = await createTestBackend({
      inference: routerWith(instantProvider({ until: held })),
      env: { WORKER_CONCURRENCY: '1' },
    });
  });
  afterAll(async () => {
    release();
    await backend.stop();
  });

  it('lists the caller’s queued and running jobs, oldest first, and nothing once they end', async () => {
    const owner = await verifiedUser(backend, 20);
    const stranger = await verifiedUser(backend, 20);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await owner.client.request<{ jobId: string }>('POST', '/api/generate-image', {
        body: generate,
        headers: { prefer: 'wait=0' },
      });
      expect(answer.status).toBe(202);
      ids.push(answer.body.jobId);
    }
    // A batch's images are followed on their batch (GET /api/batches/:id), not one by one.
    const batch = (await owner.client.post<{ id: string }>('/api/batches', { tool: 'colorizer', size: 1 })).body;
    const image = dataUrl(await pngBytes());
    const sent = await owner.client.post(`/api/batches/${batch.id}/images`, { image, item: 0, name: 'a.png' });
    expect(sent.status).toBe(202);
    const active = await owner.client.get<JobList>('/api/jobs?status=active');
    expect(active.status).toBe(200);
    expect(active.body.next).toBeNull();
    expect(active.body.jobs.map((job) => job.id)).toEqual(ids);
    expect(active.body.jobs.map((job) => job.tool)).toEqual(['text-to-pic', 'text-to-pic']);
    for (const job of active.body.jobs) expect(['queued', 'running']).toContain(job.status);
    expect((await stranger.client.get<JobList>('/api/jobs?status=active')).body.jobs).toEqual([]);
    expect((await owner.client.get<{ error: string }>('/api/jobs?status=done')).status).toBe(400);

    release();
    await eventually(async () => (await owner.client.get<JobList>('/api/jobs?status=active')).body.jobs.length === 0);
    // The history still has them (the batch's image too, which may end a moment after the single calls).
    await eventually(async () =>
      (await owner.client.get<JobList>('/api/jobs')).body.jobs.every((job) => job.status === 'succeeded'),
    );
    expect((await owner.client.get<JobList>('/api/jobs')).body.jobs.map((job) => job.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
  });

  it('asks for a session', async () => {
    const answer = await backend.app.request('/api/jobs?status=active');
    expect(answer.status).toBe(401);
  });
});
