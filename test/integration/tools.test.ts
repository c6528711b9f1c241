// The ten tool calls through the API on the demo provider: the spec's request bodies, the
// response fields, a free preview (balance and ledger untouched), the stored outputs served to
// their owner only. The same bodies on a paid provider (a fake Replicate) charge the spec's cost.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS, toolById } from '../../src/contract/tools';
import { ledger } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { type FakeReplicate, routerOnFake, startFakeReplicate } from '../support/fake-replicate';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

async function bodies() {
  const png = await pngBytes(40, 30);
  const url = dataUrl(png);
  const bare = png.toString('base64');
  return {
    'text-to-pic': {
      body: {
        prompt: 'a red fox in snow',
        aspectRatio: '16:9',
        numOutputs: 2,
        quality: 'med',
        goFast: true,
        outputFormat: 'webp',
        outputQuality: 66,
      },
      cost: 2,
      check: { count: 2, type: 'image/webp', width: 1344, height: 768 },
    },
    metamorphose: {
      body: {
        prompt: 'as an astronaut',
        main_face_image: bare,
        num_outputs: 1,
        output_quality: 33,
        width: 768,
        height: 1344,
      },
      cost: 9,
      check: { count: 1, type: 'image/webp', width: 768, height: 1344 },
    },
    'image-upscaler': {
      body: { image: url, scale: 4 },
      cost: 1,
      check: { count: 1, type: 'image/webp', width: 160, height: 120 },
    },
    colorizer: { body: { image: url }, cost: 6, check: { count: 1, type: 'image/webp', width: 40, height: 30 } },
    'background-remover': {
      body: { image: url },
      cost: 2,
      check: { count: 1, type: 'image/png', width: 40, height: 30 },
    },
    'creative-upscaler': {
      body: { image: url, scale: 2 },
      cost: 70,
      check: { count: 1, type: 'image/webp', width: 80, height: 60 },
    },
    'fix-a-face': {
      body: { image: url, scale: 2 },
      cost: 2,
      check: { count: 1, type: 'image/webp', width: 80, height: 60 },
    },
    'text-lab': {
      body: { prompt: 'poster saying "HELLO"', aspectRatio: '9:16', textAssist: 'Off' },
      cost: 15,
      check: { count: 1, type: 'image/webp', width: 768, height: 1344 },
    },
    'background-swap': {
      body: { prompt: 'on a beach', image: bare, num_outputs: 3 },
      cost: 75,
      check: { count: 3, type: 'image/webp', width: 1024, height: 1024 },
    },
    'image-analyzer': { body: { image: url }, cost: 1, check: null },
  } as const;
}

describe('every tool on the demo provider', () => {
  it.each(TOOLS.map((t) => [t.id]))(
    '%s: a free preview: answers the spec fields, stores the outputs, takes no token',
    async (toolId) => {
      const tool = toolById(toolId);
      const cases = await bodies();
      const { body, cost, check } = cases[tool.id];
      const { client, id } = await verifiedUser(backend, 200);
      const response = await client.post<Record<string, unknown>>(`/api${tool.apiPath}`, { ...body, userId: id });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.balance).toBe(200);
      // The answer itself says it was a free preview (decision 039).
      expect(response.body).toMatchObject({ charged: 0, demo: true });
      expect(typeof response.body.jobId).toBe('string');
      expect(await tokensOf(client)).toBe(200);

      if (check === null) {
        const colors = response.body.colors as { hex: string; percentage: number }[];
        expect(colors.length).toBeGreaterThan(0);
        expect(colors[0]?.hex).toMatch(/^#[0-9a-f]{6}$/);
        expect(response.body.keywords).toEqual(expect.arrayContaining([{ keyword: 'demo', score: 1 }]));
      } else {
        const urls = tool.response === 'image' ? [response.body.output as string] : (response.body.output as string[]);
        expect(Array.isArray(urls) && urls.length).toBe(check.count);
        for (const url of urls) {
          expect(url).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
          const owned = await client.fetchRaw(url);
          expect(owned.status).toBe(200);
          expect(owned.headers.get('content-type')).toBe(check.type);
        }
        const first = await fileBytes(client, urls[0] as string);
        const meta = await sharp(first).metadata();
        expect([meta.width, meta.height]).toEqual([check.width, check.height]);
      }
      // No ledger row at all (only the signup grant), and the history shows a free preview.
      const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.filter((r) => r.reason === 'job' || r.reason === 'refund')).toEqual([]);
      const history = await client.get<{ jobs: Record<string, unknown>[] }>('/api/jobs');
      expect(history.body.jobs).toEqual([
        expect.objectContaining({ id: response.body.jobId, status: 'succeeded', cost, charged: 0, demo: true }),
      ]);
    },
  );
});

describe('every tool Replicate serves, on a paid provider (a fake Replicate on 127.0.0.1)', () => {
  let fake: FakeReplicate;
  let paid: TestBackend;
  beforeAll(async () => {
    fake = await startFakeReplicate();
    paid = await createTestBackend({ inference: routerOnFake(fake) });
  });
  afterAll(async () => {
    await paid.stop();
    await fake.stop();
  });

  // The analyzer has no Replicate model: its paid path is the local engine (image-analyzer-local.test.ts).
  it.each(TOOLS.filter((t) => t.id !== 'image-analyzer').map((t) => [t.id]))(
    '%s: charges its cost once, in the answer, the balance, the ledger and the history',
    async (toolId) => {
      const tool = toolById(toolId);
      const { body, cost, check } = (await bodies())[tool.id];
      const { client, id } = await verifiedUser(paid, 200);
      const response = await client.post<Record<string, unknown>>(`/api${tool.apiPath}`, { ...body, userId: id });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.balance).toBe(200 - cost);
      expect(await tokensOf(client)).toBe(200 - cost);
      const output = response.body.output;
      expect(Array.isArray(output) ? output.length : 1).toBe(check?.count);
      const rows = await paid.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.filter((r) => r.reason === 'job').map((r) => r.delta)).toEqual([-cost]);
      const history = await client.get<{ jobs: Record<string, unknown>[] }>('/api/jobs');
      expect(history.body.jobs).toEqual([expect.objectContaining({ cost, charged: cost, demo: false })]);
      expect(await findLedgerMismatches(paid.database.db)).toEqual([]);
    },
  );
});

async function fileBytes(client: TestClient, url: string): Promise<Buffer> {
  const response = await client.fetchRaw(url);
  return Buffer.from(await response.arrayBuffer());
}

describe('outputs and jobs belong to their owner', () => {
  it('serves a file to its owner only, and lists and shows only the owner jobs', async () => {
    const owner = await verifiedUser(backend, 50);
    const stranger = await verifiedUser(backend, 50);
    const response = await owner.client.post<{ output: string[]; jobId: string }>('/api/generate-image', {
      prompt: 'a lighthouse',
      numOutputs: 1,
    });
    expect(response.status).toBe(200);
    const url = response.body.output[0] as string;
    expect((await owner.client.fetchRaw(url)).status).toBe(200);
    const stolen = await stranger.client.get(url);
    expect(stolen.status).toBe(404);
    expect((await new TestClient(backend.app, backend.config.appUrl).get(url)).status).toBe(401);

    const job = await owner.client.get<{ status: string; output: string[] }>(`/api/jobs/${response.body.jobId}`);
    expect(job.body).toMatchObject({ status: 'succeeded', output: [url] });
    expect((await stranger.client.get(`/api/jobs/${response.body.jobId}`)).status).toBe(404);
    const list = await owner.client.get<{ jobs: { id: string }[] }>('/api/jobs');
    expect(list.body.jobs.map((j) => j.id)).toEqual([response.body.jobId]);
    expect((await stranger.client.get<{ jobs: unknown[] }>('/api/jobs')).body.jobs).toEqual([]);
  });

  it('tells the web which tools run in demo mode', async () => {
    const { client } = await verifiedUser(backend);
    const tools = await client.get<{ tools: { id: string; provider: string; demo: boolean }[] }>('/api/tools');
    expect(tools.body.tools).toHaveLength(10);
    expect(tools.body.tools.every((t) => t.provider === 'demo' && t.demo)).toBe(true);
  });

  it('keeps every balance equal to its ledger', async () => {
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });
});
