// A batch's zip while some of it still runs (issue 54 item 3): beside the finished results it carries
// a README.txt that lists every image the user chose, in their order: done (its entry in the zip),
// still waiting or running, failed with the server's sentence (an image the server refused when it
// was sent counts as failed, with the sentence it answered, never as not sent), and never sent. The
// batch read and My Creations count the same images. Runs on both databases.
import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MESSAGES, type Batch, type BatchImageQueued } from '../../src/contract/batches';
import type { CreationList } from '../../src/contract/creations';
import { type InferenceProvider, ProviderError, type ToolResult } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const NO_SUBJECT = 'No subject found in this image.';
/** Widths the provider below treats apart: a cut-out that finds no subject, and a run held until released. */
const NO_SUBJECT_WIDTH = 13;
const HELD_WIDTH = 17;

/** Answers like the instant provider; fails an image 13 px wide; holds one 17 px wide until `release()`. */
function provider() {
  const instant = instantProvider();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const answer: InferenceProvider & { release(): void } = {
    ...instant,
    release: () => release(),
    async run(input, signal): Promise<ToolResult> {
      if (input.image?.width === HELD_WIDTH) await held;
      if (input.image?.width === NO_SUBJECT_WIDTH) throw new ProviderError('no subject', { userMessage: NO_SUBJECT });
      return instant.run(input, signal);
    },
  };
  return answer;
}

const runs = provider();
let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ env: { WORKER_CONCURRENCY: '1' }, inference: routerWith(runs) });
});
afterAll(() => backend.stop());
afterEach(async () => {
  runs.release();
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

const image = async (width: number) => dataUrl(await pngBytes(width, 24));

const sendImage = (client: TestClient, batchId: string, body: Record<string, unknown>) =>
  client.post<BatchImageQueued & { error?: string }>(`/api/batches/${batchId}/images`, body);

const readBatch = async (client: TestClient, id: string) => (await client.get<Batch>(`/api/batches/${id}`)).body;

async function readme(client: TestClient, batchId: string) {
  const zip = await client.fetchRaw(`/api/batches/${batchId}/download`);
  expect(zip.status).toBe(200);
  const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
  return { names: Object.keys(entries), text: Buffer.from(entries['README.txt'] as Uint8Array).toString() };
}

describe("a batch's zip", () => {
  it('lists every image the user chose in README.txt: done, still running, failed or refused with the sentence, never sent', async () => {
    const { client } = await verifiedUser(backend, 40);
    const names = ['IMG_0412.jpg', 'notes.png', 'sky.png', 'big.jpg', 'left-out.jpg'];
    const made = await client.post<Batch>('/api/batches', { tool: 'background-remover', size: 5, names });
    expect(made.status).toBe(201);
    const batchId = made.body.id;

    expect((await sendImage(client, batchId, { image: await image(30), item: 0, name: names[0] })).status).toBe(202);
    // Not a PNG at all: refused when sent, nothing charged, no job.
    const notAnImage = `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}`;
    const refused = await sendImage(client, batchId, { image: notAnImage, item: 1, name: names[1] });
    expect(refused.status).toBe(400);
    const sentence = refused.body.error as string;
    expect(sentence).toBeTruthy();
    expect(
      (await sendImage(client, batchId, { image: await image(NO_SUBJECT_WIDTH), item: 2, name: names[2] })).status,
    ).toBe(202);
    await expect
      .poll(async () => (await readBatch(client, batchId)).counts, { timeout: 30_000 })
      .toMatchObject({ done: 1, failed: 1 });
    // Held by the provider: still running when the zip is made. The fifth is never sent.
    expect((await sendImage(client, batchId, { image: await image(HELD_WIDTH), item: 3, name: names[3] })).status).toBe(
      202,
    );

    const batch = await readBatch(client, batchId);
    expect(batch.refused).toEqual([{ item: 1, name: 'notes.png', error: sentence }]);
    expect(batch.counts).toMatchObject({ done: 1, failed: 1 });
    expect(batch.counts.waiting + batch.counts.running).toBe(1);
    // My Creations counts the five images chosen, not the three jobs.
    const listed = (await client.get<CreationList>('/api/creations')).body.creations;
    expect(new Set(listed.map((creation) => creation.batch?.images))).toEqual(new Set([5]));

    const during = await readme(client, batchId);
    expect(during.names.sort()).toEqual(['IMG_0412-background-removed.webp', 'README.txt']);
    expect(during.text).toBe(
      [
        'Background Remover: a batch of 5 images.',
        'When this zip was made, 1 image was still waiting or running: download the batch again when it is done.',
        '',
        'Done (1), in this zip:',
        '  1. IMG_0412.jpg -> IMG_0412-background-removed.webp',
        '',
        'Still waiting or running (1), not in this zip yet:',
        '  4. big.jpg',
        '',
        'Failed (2), nothing charged for them:',
        `  2. notes.png: ${sentence} (refused when it was sent, not charged)`,
        `  3. sky.png: ${NO_SUBJECT} (tokens given back)`,
        '',
        'Not sent (1), nothing charged for them:',
        '  5. left-out.jpg',
        '  No image came for these from the page that started the batch. That page sends the images one by one while it stays open: if it was closed before it sent these, run them again in a new batch.',
        '',
      ].join('\r\n'),
    );

    runs.release();
    await expect.poll(async () => (await readBatch(client, batchId)).counts.done, { timeout: 30_000 }).toBe(2);
    const after = await readme(client, batchId);
    expect(after.names.sort()).toEqual([
      'IMG_0412-background-removed.webp',
      'README.txt',
      'big-background-removed.webp',
    ]);
    expect(after.text).not.toContain('still waiting or running');
    expect(after.text).toContain(
      'Done (2), in this zip:\r\n  1. IMG_0412.jpg -> IMG_0412-background-removed.webp\r\n  4. big.jpg -> big-background-removed.webp\r\n',
    );
  });

  it('keeps two refusals that come at once', async () => {
    const { client } = await verifiedUser(backend, 20);
    const batch = (await client.post<Batch>('/api/batches', { tool: 'colorizer', size: 2 })).body;
    const notAnImage = `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}`;
    const answers = await Promise.all(
      ['a.png', 'b.png'].map((name, item) => sendImage(client, batch.id, { image: notAnImage, item, name })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([400, 400]);
    const refused = (await readBatch(client, batch.id)).refused;
    expect(refused.map(({ item, name }) => ({ item, name }))).toEqual([
      { item: 0, name: 'a.png' },
      { item: 1, name: 'b.png' },
    ]);
    expect(await tokensOf(client)).toBe(20);
  });

  it('names an image never sent by its place when the batch came without names, as an API client may make it', async () => {
    const { client } = await verifiedUser(backend, 20);
    const batch = (await client.post<Batch>('/api/batches', { tool: 'image-analyzer', size: 2 })).body;
    expect((await sendImage(client, batch.id, { image: await image(30), item: 0, name: 'beach.jpg' })).status).toBe(
      202,
    );
    await expect.poll(async () => (await readBatch(client, batch.id)).counts.done, { timeout: 30_000 }).toBe(1);
    const { names, text } = await readme(client, batch.id);
    expect(names).toEqual(['keywords.csv', 'README.txt']);
    expect(text).toContain('Done (1), in this zip:\r\n  1. beach.jpg -> keywords.csv\r\n');
    expect(text).toContain('Not sent (1), nothing charged for them:\r\n  2. Image 2\r\n');
  });

  it('refuses names that are not one file name for each image, in a clear sentence, charging nothing', async () => {
    const { client } = await verifiedUser(backend, 20);
    for (const names of [['a.png'], ['a.png', ''], ['a.png', 'x'.repeat(201)], ['a.png', 'b\u0000.png'], 'a.png']) {
      const refused = await client.post<{ error: string }>('/api/batches', { tool: 'colorizer', size: 2, names });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(BATCH_MESSAGES.names);
    }
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
    expect(await tokensOf(client)).toBe(20);
  });
});
