// Recipes (issue 58 item 5, decision 083): saved, listed and deleted per account; a bad step refused
// naming it; run on one image, each step its own job charged when it starts (the sum of the steps'
// prices, nothing more); a failed step refunded and the chain stopped there; a batch of ten phone
// photos through a recipe with one zip back. Runs on both databases (money).
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Recipe, RecipeList, RecipeRun } from '../../src/contract/recipes';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { phoneJpeg } from '../support/phone-photos';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

/** Fails every Image Upscaler run (the second step of the failing chain); answers the rest at once. */
const provider = instantProvider();
const failingUpscaler = {
  ...provider,
  run: (input: Parameters<typeof provider.run>[0], signal: AbortSignal) =>
    input.tool === 'image-upscaler' && (input as { scale?: number }).scale === 4
      ? Promise.reject(new Error('upscaler exploded'))
      : provider.run(input, signal),
};

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(failingUpscaler) });
}, 120_000);
afterAll(() => backend.stop());
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

/** The example: remove background -> white square 2000 px with shadow -> upscale 2x as JPEG 90. */
const SHOP_LISTING = {
  name: 'Shop listing',
  steps: [
    { tool: 'background-remover', options: {} },
    { tool: 'background-remover', options: { background: '#ffffff', size: 2000, shadow: true } },
    { tool: 'image-upscaler', options: { scale: 2, outputFormat: 'jpeg', outputQuality: 90 } },
  ],
};

async function untilEnded(client: TestClient, runId: string): Promise<RecipeRun> {
  await expect
    .poll(async () => (await client.get<RecipeRun>(`/api/recipe-runs/${runId}`)).body.counts.running, {
      timeout: 60_000,
    })
    .toBe(0);
  const run = (await client.get<RecipeRun>(`/api/recipe-runs/${runId}`)).body;
  expect(run.items.length).toBe(run.size);
  return run;
}

const callsOf = (tool: string) => provider.calls.filter((call) => call.tool === tool);

describe('recipes', () => {
  it('are saved, listed with their cost, and deleted, per account', async () => {
    const { client } = await verifiedUser(backend);
    const saved = await client.post<Recipe>('/api/recipes', SHOP_LISTING);
    expect(saved.status).toBe(201);
    const prices = (await client.get<{ tools: { id: string; price: number }[] }>('/api/tools')).body.tools;
    const price = (id: string) => prices.find((tool) => tool.id === id)?.price ?? Number.NaN;
    expect(saved.body).toMatchObject({ name: 'Shop listing', steps: SHOP_LISTING.steps });
    expect(saved.body.cost).toBe(2 * price('background-remover') + price('image-upscaler'));
    expect((await client.get<RecipeList>('/api/recipes')).body.recipes.map((r) => r.id)).toEqual([saved.body.id]);

    // Another account neither sees nor deletes it.
    const other = await verifiedUser(backend);
    expect((await other.client.get<RecipeList>('/api/recipes')).body.recipes).toEqual([]);
    expect((await other.client.request('DELETE', `/api/recipes/${saved.body.id}`)).status).toBe(404);

    expect((await client.request('DELETE', `/api/recipes/${saved.body.id}`)).status).toBe(204);
    expect((await client.get<RecipeList>('/api/recipes')).body.recipes).toEqual([]);
  });

  it('refuses a bad recipe with a sentence naming the step and the field, and keeps nothing', async () => {
    const { client } = await verifiedUser(backend);
    const refusals: [unknown, string | RegExp][] = [
      [
        { name: 'Bad size', steps: [{ tool: 'background-remover', options: { size: 5 } }] },
        /^Step 1 \(Background Remover\): size: must be from/,
      ],
      [
        {
          name: 'Bad scale',
          steps: [
            { tool: 'background-remover', options: {} },
            { tool: 'image-upscaler', options: { scale: 3 } },
          ],
        },
        'Step 2 (Image Upscaler): scale: must be 2, 4 or 6',
      ],
      [
        { name: 'Unknown', steps: [{ tool: 'colorizer', options: { sparkle: true } }] },
        'Step 1 (Colorizer): sparkle: is not an option of this tool',
      ],
      [
        {
          name: 'After analysis',
          steps: [
            { tool: 'image-analyzer', options: {} },
            { tool: 'colorizer', options: {} },
          ],
        },
        /^Step 2 \(Colorizer\) cannot follow Image Analyzer: it makes keywords and colours, not one image/,
      ],
      [
        { name: 'Prompt tool', steps: [{ tool: 'text-to-pic', options: { prompt: 'a cat' } }] },
        /^Step 1: tool must be one of/,
      ],
      [{ name: '', steps: [{ tool: 'colorizer', options: {} }] }, /^name: /],
      [{ name: 'No steps', steps: [] }, /^steps: /],
    ];
    for (const [body, error] of refusals) {
      const answer = await client.post<{ error: string }>('/api/recipes', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatch(error);
    }
    expect((await client.get<RecipeList>('/api/recipes')).body.recipes).toEqual([]);
  });

  it('runs the shop listing on one image, each step its own job, charging exactly the sum of the steps', async () => {
    const { client } = await verifiedUser(backend, 40);
    const recipe = (await client.post<Recipe>('/api/recipes', SHOP_LISTING)).body;
    const before = provider.calls.length;
    const started = await client.post<RecipeRun>(`/api/recipes/${recipe.id}/run`, {
      image: dataUrl(await pngBytes(64, 48)),
      name: 'mug.png',
    });
    expect(started.status).toBe(202);
    const run = await untilEnded(client, started.body.id);
    expect(run.items).toHaveLength(1);
    const [image] = run.items;
    expect(image).toMatchObject({ status: 'done', error: null });
    expect(image?.steps.map((step) => step.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(run).toMatchObject({ charged: recipe.cost, refunded: 0 });
    expect(await tokensOf(client)).toBe(40 - recipe.cost);

    // Each step took the previous one's result, with its own options: the provider's 8 x 8 cut-out,
    // then the 2000 px white square the second step's finishing made of it.
    const calls = provider.calls.slice(before);
    expect(calls.map((call) => call.tool)).toEqual(['background-remover', 'background-remover', 'image-upscaler']);
    expect(calls.map((call) => ('image' in call ? [call.image.width, call.image.height] : null))).toEqual([
      [64, 48],
      [8, 8],
      [2000, 2000],
    ]);
    expect(calls[1]).toMatchObject({ background: '#ffffff', size: 2000, shadow: true });
    expect(calls[2]).toMatchObject({ scale: 2, outputFormat: 'jpeg', outputQuality: 90 });

    // The result is the last step's file; the run's zip holds it.
    const result = await client.fetchRaw(image?.output ?? '');
    expect(result.status).toBe(200);
    const zip = await client.fetchRaw(run.downloadUrl);
    expect(zip.status).toBe(200);
    const entries = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer()))).sort();
    expect(entries).toHaveLength(2);
    expect(entries).toContain('README.txt');
    expect(entries.find((entry) => entry !== 'README.txt')).toMatch(/^mug-.*\.jpg$/);
  });

  it('stops the chain at a failed step: that step refunded, the next never run nor charged', async () => {
    const { client } = await verifiedUser(backend, 40);
    const recipe = (
      await client.post<Recipe>('/api/recipes', {
        name: 'Breaks in the middle',
        steps: [
          { tool: 'background-remover', options: {} },
          { tool: 'image-upscaler', options: { scale: 4 } },
          { tool: 'colorizer', options: {} },
        ],
      })
    ).body;
    const colorized = callsOf('colorizer').length;
    const started = await client.post<RecipeRun>(`/api/recipes/${recipe.id}/run`, {
      image: dataUrl(await pngBytes(64, 48)),
    });
    expect(started.status).toBe(202);
    const run = await untilEnded(client, started.body.id);
    const [image] = run.items;
    expect(image?.status).toBe('failed');
    expect(image?.steps.map((step) => step.status)).toEqual(['succeeded', 'failed']);
    expect(image?.error).toMatch(
      /^Step 2 \(Image Upscaler\) failed: .* The steps after it did not run and took nothing\.$/,
    );
    const [removed, upscaled] = image?.steps ?? [];
    expect(upscaled?.refunded).toBe(upscaled?.charged);
    expect(run.charged - run.refunded).toBe(removed?.charged);
    expect(await tokensOf(client)).toBe(40 - (removed?.charged ?? 0));
    expect(callsOf('colorizer').length).toBe(colorized);
  });

  it('runs a batch of ten phone photos through a recipe: one zip back, the right total charged', async () => {
    const { client } = await verifiedUser(backend, 100);
    const recipe = (
      await client.post<Recipe>('/api/recipes', {
        name: 'Listing photos',
        steps: [
          { tool: 'background-remover', options: { background: '#ffffff' } },
          { tool: 'image-upscaler', options: { scale: 2, outputFormat: 'jpeg', outputQuality: 90 } },
        ],
      })
    ).body;
    // Ten phone-sized photos (3 MP), cropped from one 12 MP camera JPEG.
    const camera = await phoneJpeg({ width: 4000, height: 3000 });
    const photos = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        sharp(camera)
          .extract({ left: (index % 5) * 400, top: Math.floor(index / 5) * 1400, width: 2000, height: 1500 })
          .jpeg({ quality: 90 })
          .toBuffer(),
      ),
    );
    const names = photos.map((_, index) => `IMG_40${index}0.jpg`);
    const created = await client.post<RecipeRun>(`/api/recipes/${recipe.id}/run`, { size: 10, names });
    expect(created.status).toBe(201);
    for (const [item, photo] of photos.entries()) {
      const form = new FormData();
      form.set('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), names[item]);
      form.set('item', String(item));
      form.set('name', names[item] as string);
      const sent = await backend.app.request(`/api/recipe-runs/${created.body.id}/images`, {
        method: 'POST',
        headers: { origin: backend.config.appUrl, 'x-forwarded-for': client.ip, cookie: client.cookieHeader() },
        body: form,
      });
      expect(sent.status, await sent.clone().text()).toBe(202);
    }
    const run = await untilEnded(client, created.body.id);
    expect(run.counts).toEqual({ running: 0, done: 10, failed: 0 });
    expect(run).toMatchObject({ charged: 10 * recipe.cost, refunded: 0 });
    expect(await tokensOf(client)).toBe(100 - 10 * recipe.cost);
    const zip = await client.fetchRaw(run.downloadUrl);
    expect(zip.status).toBe(200);
    const entries = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
    const results = entries.filter((entry) => entry !== 'README.txt').map((entry) => entry.split('-')[0]);
    expect(results.sort()).toEqual(names.map((name) => name.replace('.jpg', '')).sort());
    expect(entries).toContain('README.txt');
  });

  it('are in the OpenAPI document: the recipes, their runs and their images', async () => {
    const document = (await (await backend.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.tags?.includes('Recipes'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual([
      'DELETE /api/recipes/{id}',
      'GET /api/recipe-runs/{id}',
      'GET /api/recipes',
      'POST /api/recipe-runs/{id}/images',
      'POST /api/recipes',
      'POST /api/recipes/{id}/run',
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Recipe', 'RecipeList', 'RecipeRun', 'RecipeRequest', 'RecipeRunImageMultipartRequest']),
    );
  });
});
