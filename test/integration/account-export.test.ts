// The account export (issue 17): a zip of the user's outputs with jobs.json and purchases.json,
// nothing of another user's.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creation } from '../../src/contract/creations';
import { payments } from '../../src/server/db/schema';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  // A paid provider, as a user's real results come from (the demo's are free previews).
  backend = await createTestBackend({ inference: routerWith(paidLookalikeOfDemo()) });
});
afterAll(() => backend.stop());

async function exported(client: TestClient) {
  const response = await client.fetchRaw('/api/account/export');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}

describe('account export', () => {
  it('zips the outputs, the jobs and the purchases of the user only', async () => {
    const { client, id } = await verifiedUser(backend);
    const upscale = await client.post<{ jobId: string; output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    const pic = await client.post<{ jobId: string }>('/api/generate-image', { prompt: 'a fox', numOutputs: 2 });
    await backend.database.db.insert(payments).values({
      userId: id,
      provider: 'local',
      sessionId: `export-test-${id}`,
      packageId: 'starter',
      tokens: 100,
      amountCents: 500,
      status: 'paid',
    });
    const other = (await verifiedUser(backend)).client;
    await other.post('/api/upscale-image', { image: dataUrl(await pngBytes(40, 30)), scale: 2 });

    const zip = await exported(client);
    const outputs = Object.keys(zip).filter((name) => name.startsWith('outputs/'));
    expect(outputs).toHaveLength(3);
    expect(outputs.filter((name) => name.includes(upscale.body.jobId))).toEqual([
      expect.stringMatching(/^outputs\/\d{4}-\d\d-\d\d-image-upscaler-.+-1\.webp$/),
    ]);
    const served = Buffer.from(await (await client.fetchRaw(upscale.body.output)).arrayBuffer());
    const name = outputs.find((n) => n.includes(upscale.body.jobId)) ?? '';
    expect(Buffer.from(zip[name] ?? []).equals(served)).toBe(true);

    const jobs = JSON.parse(strFromU8(zip['jobs.json'] ?? new Uint8Array())) as Creation[];
    expect(jobs.map((j) => j.id)).toEqual([pic.body.jobId, upscale.body.jobId]);
    expect(jobs[1]).toMatchObject({ tool: 'image-upscaler', charged: 1, settings: { scale: 2 } });
    const purchases = JSON.parse(strFromU8(zip['purchases.json'] ?? new Uint8Array()));
    expect(purchases).toEqual([expect.objectContaining({ packageId: 'starter', tokens: 100, amountCents: 500 })]);
  });

  it('is empty but valid for a new user, and 401 signed out', async () => {
    const { client } = await verifiedUser(backend);
    const zip = await exported(client);
    expect(Object.keys(zip).sort()).toEqual(['jobs.json', 'purchases.json']);
    expect((await backend.app.request('/api/account/export')).status).toBe(401);
  });
});
