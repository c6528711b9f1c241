// A tool's image by reference (issue 17): `/api/files/<id>` of one of the user's own stored files
// is used like an upload; another user's file, or a deleted one, is refused and nothing is charged.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedImageRef } from '../../src/contract/creations';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  // A paid provider (the demo's results are free previews), so a charge can be seen.
  backend = await createTestBackend({ inference: routerWith(paidLookalikeOfDemo()) });
});
afterAll(() => backend.stop());

type Answer = { success: boolean; output?: string; error?: string; jobId?: string };

async function upscaledFileId(client: TestClient) {
  const answer = await client.post<Answer>('/api/upscale-image', { image: dataUrl(await pngBytes(40, 30)), scale: 2 });
  expect(answer.status).toBe(200);
  return (answer.body.output ?? '').replace('/api/files/', '');
}

describe('a stored image as a tool’s input', () => {
  it('runs a tool on the user’s own result, charged like an upload', async () => {
    const { client } = await verifiedUser(backend);
    const fileId = await upscaledFileId(client);
    const before = await tokensOf(client);
    const answer = await client.post<Answer>('/api/upscale-image', { image: storedImageRef(fileId), scale: 2 });
    expect(answer.status).toBe(200);
    expect(await tokensOf(client)).toBe(before - 1);
    const output = await client.fetchRaw(answer.body.output ?? '');
    const meta = await sharp(Buffer.from(await output.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([160, 120]);
  });

  it('refuses another user’s file exactly like a missing one, charging nothing', async () => {
    const owner = (await verifiedUser(backend)).client;
    const fileId = await upscaledFileId(owner);
    const { client } = await verifiedUser(backend);
    const before = await tokensOf(client);
    const stolen = await client.post<Answer>('/api/remove-background', { image: storedImageRef(fileId) });
    const missing = await client.post<Answer>('/api/remove-background', {
      image: storedImageRef('00000000-0000-4000-8000-000000000000'),
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual(missing.body);
    expect(stolen.body.error).toMatch(/^The image you chose is no longer stored/);
    expect(await tokensOf(client)).toBe(before);
  });

  it('refuses a file the user deleted with its creation', async () => {
    const { client } = await verifiedUser(backend);
    const fileId = await upscaledFileId(client);
    const [creation] = (await client.get<{ creations: { id: string }[] }>('/api/creations')).body.creations;
    expect((await client.request('DELETE', `/api/creations/${creation?.id}`)).status).toBe(204);
    const answer = await client.post<Answer>('/api/remove-background', { image: storedImageRef(fileId) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^The image you chose is no longer stored/);
  });

  it('applies the same limits as an upload (the upscaler’s size limit for the scale)', async () => {
    const { client } = await verifiedUser(backend);
    const big = await client.post<Answer>('/api/upscale-image', {
      image: dataUrl(await pngBytes(1500, 1200)),
      scale: 2,
    });
    expect(big.status).toBe(200);
    const before = await tokensOf(client);
    const again = await client.post<Answer>('/api/upscale-image', { image: big.body.output, scale: 4 });
    expect(again.status).toBe(413);
    expect(again.body.error).toMatch(/^This image is 3,000 x 2,400 px, more than 1024 x 1024 for 4x\./);
    expect(await tokensOf(client)).toBe(before);
  });
});
