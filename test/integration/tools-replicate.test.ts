// Tool calls served by the Replicate provider against a fake Replicate on 127.0.0.1: what we send
// to the model, that the outputs are copied to our storage (never Replicate's URLs), and that a
// failed prediction is refunded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { routerOnFake, startFakeReplicate } from '../support/fake-replicate';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, verifiedUser } from '../support/tool-fixtures';

describe('tools on Replicate (fake)', () => {
  let fake: Awaited<ReturnType<typeof startFakeReplicate>>;
  let backend: TestBackend;
  beforeAll(async () => {
    fake = await startFakeReplicate();
    backend = await createTestBackend({ inference: routerOnFake(fake) });
  });
  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
  });

  it('generates images with flux-schnell and serves copies from our origin', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const response = await client.post<{ success: boolean; output: string[]; balance: number }>('/api/generate-image', {
      userId: id,
      prompt: 'a glass teapot',
      aspectRatio: '9:16',
      numOutputs: 2,
      quality: 'low',
      goFast: true,
      outputFormat: 'webp',
      outputQuality: 33,
    });
    expect(response.status).toBe(200);
    expect(response.body.balance).toBe(18);
    const create = fake.requests.find((r) => r.method === 'POST' && r.path.includes('flux-schnell'));
    if (!create) throw new Error('no prediction was created');
    expect(create.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect((create.body as { input: unknown }).input).toEqual({
      prompt: 'a glass teapot',
      aspect_ratio: '9:16',
      num_outputs: 2,
      go_fast: true,
      output_format: 'webp',
      output_quality: 33,
    });
    expect(response.body.output).toHaveLength(2);
    for (const url of response.body.output) {
      expect(url.startsWith('/api/files/')).toBe(true);
      const file = await client.fetchRaw(url);
      expect(file.headers.get('content-type')).toBe('image/webp');
    }
  });

  it('upscales with real-esrgan and answers one URL', async () => {
    const { client } = await verifiedUser(backend, 20);
    const response = await client.post<{ output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(20, 10)),
      scale: 2,
    });
    expect(response.status).toBe(200);
    expect(typeof response.body.output).toBe('string');
    const create = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/predictions').at(-1);
    if (!create) throw new Error('no prediction was created');
    expect((create.body as { input: Record<string, unknown> }).input).toMatchObject({ scale: 2, face_enhance: false });
  });

  it('refunds a failed prediction and shows the tool message', async () => {
    fake.setNextScenario('fail');
    const { client } = await verifiedUser(backend, 20);
    const response = await client.post<{ success: boolean; error: string; balance: number }>('/api/colorize-image', {
      image: dataUrl(await pngBytes()),
    });
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({
      success: false,
      error: 'Colorization failed. Please try again.',
      balance: 20,
    });
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });

  it('still serves the analyzer, which Replicate does not have, from the fallback', async () => {
    const { client } = await verifiedUser(backend, 20);
    const tools = await client.get<{ tools: { id: string; provider: string }[] }>('/api/tools');
    expect(tools.body.tools.find((t) => t.id === 'image-analyzer')?.provider).toBe('demo');
    expect(tools.body.tools.find((t) => t.id === 'text-to-pic')?.provider).toBe('replicate');
  });

  it('has no webhook endpoint without REPLICATE_WEBHOOK_SECRET (polling mode)', async () => {
    const response = await backend.app.request('/api/webhooks/replicate', { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });
});
