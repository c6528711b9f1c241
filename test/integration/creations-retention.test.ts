// Retention, usage and the storage quota of My Creations (issue 17, decision 022): expired uploads
// and results are deleted once each, even by sweeps running at once; a user at the quota is refused
// before anything is charged.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList, CreationUsage } from '../../src/contract/creations';
import { sweepExpiredFiles } from '../../src/server/creations/retention';
import { files } from '../../src/server/db/schema';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ env: { STORAGE_QUOTA_MB: '1' } });
});
afterAll(() => backend.stop());

const retention = { uploadRetentionDays: 7, resultRetentionDays: 90 };

async function upscale(client: TestClient) {
  const answer = await client.post<{ jobId: string }>('/api/upscale-image', {
    image: dataUrl(await pngBytes(40, 30)),
    scale: 2,
  });
  expect(answer.status).toBe(200);
  return answer.body.jobId;
}

/** Makes the job's files of `kind` look `days` old. */
const age = (jobId: string, kind: 'input' | 'output', days: number) =>
  backend.database.db
    .update(files)
    .set({ createdAt: sql`now() - make_interval(days => ${days})` })
    .where(and(eq(files.jobId, jobId), eq(files.kind, kind)));

describe('retention', () => {
  it('deletes uploads after the upload retention and results after the result retention, once', async () => {
    const { client } = await verifiedUser(backend);
    const jobId = await upscale(client);
    const [creation] = (await client.get<CreationList>('/api/creations')).body.creations;
    const input = creation?.inputs[0];
    const output = creation?.outputs[0];
    if (!input || !output) throw new Error('the creation has no images');
    const [inputRow] = await backend.database.db.select().from(files).where(eq(files.id, input.id));

    await age(jobId, 'input', 6);
    await age(jobId, 'output', 89);
    expect(await sweepExpiredFiles(backend.database.db, backend.storage, retention)).toBe(0);

    await age(jobId, 'input', 8);
    expect(await sweepExpiredFiles(backend.database.db, backend.storage, retention)).toBe(1);
    expect((await client.fetchRaw(input.url)).status).toBe(404);
    expect(await backend.storage.get(inputRow?.storageKey ?? '')).toBeNull();
    expect((await client.fetchRaw(output.url)).status).toBe(200);

    await age(jobId, 'output', 91);
    expect(await sweepExpiredFiles(backend.database.db, backend.storage, retention)).toBe(1);
    expect((await client.fetchRaw(output.url)).status).toBe(404);
    const [after] = (await client.get<CreationList>('/api/creations')).body.creations;
    expect(after).toMatchObject({ id: jobId, inputs: [], outputs: [] });
  });

  it('deletes each file once when sweeps run at the same time (cluster mode)', async () => {
    const { client } = await verifiedUser(backend);
    const jobs = [await upscale(client), await upscale(client), await upscale(client)];
    for (const jobId of jobs) await age(jobId, 'input', 30);
    const counts = await Promise.all(
      [1, 2, 3].map(() => sweepExpiredFiles(backend.database.db, backend.storage, retention)),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
  });
});

describe('usage and quota', () => {
  it('answers the bytes stored, the quota and the retention', async () => {
    const { client, id } = await verifiedUser(backend);
    await upscale(client);
    const rows = await backend.database.db.select().from(files).where(eq(files.userId, id));
    const usage = await client.get<CreationUsage>('/api/creations/usage');
    expect(usage.body).toEqual({
      usedBytes: rows.reduce((total, f) => total + f.size, 0),
      quotaBytes: 1024 * 1024,
      uploadRetentionDays: 7,
      resultRetentionDays: 90,
    });
    expect(usage.body.usedBytes).toBeGreaterThan(0);
  });

  it('counts every file a user gains and loses: a tool call, the retention sweep, a deleted creation', async () => {
    const first = await verifiedUser(backend);
    const second = await verifiedUser(backend);
    const storedBytes = async (userId: string) => {
      const rows = await backend.database.db.select().from(files).where(eq(files.userId, userId));
      return rows.reduce((total, f) => total + f.size, 0);
    };
    const usedBytes = async (client: TestClient) =>
      (await client.get<CreationUsage>('/api/creations/usage')).body.usedBytes;

    const jobId = await upscale(first.client);
    await upscale(second.client);
    const both = await storedBytes(first.id);
    expect(both).toBeGreaterThan(0);
    expect(await usedBytes(first.client)).toBe(both);

    await age(jobId, 'input', 30);
    expect(await sweepExpiredFiles(backend.database.db, backend.storage, retention)).toBeGreaterThanOrEqual(1);
    const outputOnly = await storedBytes(first.id);
    expect(outputOnly).toBeGreaterThan(0);
    expect(outputOnly).toBeLessThan(both);
    expect(await usedBytes(first.client)).toBe(outputOnly);

    expect((await first.client.request('DELETE', `/api/creations/${jobId}`)).status).toBe(204);
    expect(await usedBytes(first.client)).toBe(0);
    expect(await usedBytes(second.client)).toBe(await storedBytes(second.id));
  });

  it('refuses a tool call at the quota with a clear message (409), nothing charged', async () => {
    const { client, id } = await verifiedUser(backend);
    await backend.database.db.insert(files).values({
      userId: id,
      kind: 'output',
      storageKey: `outputs/quota-test/${id}.png`,
      contentType: 'image/png',
      size: 1024 * 1024,
    });
    const before = await tokensOf(client);
    const answer = await client.post<{ error: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toContain('Your storage is full');
    expect(await tokensOf(client)).toBe(before);
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
  });
});
