// Batches of photos as phones make them (issue 52): a 12 MP JPEG of several MB and a 5 MB PNG go
// into a batch as the tool calls take them, base64 in JSON and as multipart files, over the API's
// 1 MB limit for other bodies; each image is charged once, and the zip holds one result a photo.
// Runs on both databases (money).
import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/contract/api-keys';
import type { Batch, BatchImageQueued } from '../../src/contract/batches';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { keywordsCsvFileNames } from '../support/keywords-csv';
import { phoneJpeg, phonePng } from '../support/phone-photos';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const MB = 1024 * 1024;

let backend: TestBackend;
let jpeg: Buffer;
let png: Buffer;
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(instantProvider()) });
  [jpeg, png] = await Promise.all([phoneJpeg({ width: 4000, height: 3000 }), phonePng()]);
}, 120_000);
afterAll(() => backend.stop());
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

type Photo = { name: string; bytes: Buffer; type: 'image/jpeg' | 'image/png' };
type Answer = { status: number; body: BatchImageQueued & { error?: string } };

/** One photo into a batch, as the API takes it: `json` (a data URL) or `multipart` (a file part). */
async function sendPhoto(
  headers: Record<string, string>,
  batchId: string,
  item: number,
  photo: Photo,
  as: 'json' | 'multipart',
): Promise<Answer> {
  let body: BodyInit;
  if (as === 'json') {
    headers = { ...headers, 'content-type': 'application/json' };
    body = JSON.stringify({ image: dataUrl(photo.bytes, photo.type), item, name: photo.name });
  } else {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(photo.bytes)], { type: photo.type }), photo.name);
    form.set('item', String(item));
    form.set('name', photo.name);
    body = form;
  }
  const response = await backend.app.request(`/api/batches/${batchId}/images`, { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const sessionHeaders = (client: TestClient) => ({
  origin: backend.config.appUrl,
  'x-forwarded-for': client.ip,
  cookie: client.cookieHeader(),
});

async function untilEnded(client: TestClient, id: string): Promise<Batch> {
  await expect
    .poll(
      async () => {
        const { counts } = (await client.get<Batch>(`/api/batches/${id}`)).body;
        return counts.waiting + counts.running === 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return (await client.get<Batch>(`/api/batches/${id}`)).body;
}

async function zipEntryNames(client: TestClient, id: string): Promise<string[]> {
  const zip = await client.fetchRaw(`/api/batches/${id}/download`);
  expect(zip.status).toBe(200);
  return Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer()))).sort();
}

describe('a batch of phone-sized photos', () => {
  it('takes a 12 MP JPEG and a 5 MB PNG, as JSON and as multipart, each charged once', async () => {
    expect(jpeg.length).toBeGreaterThan(4 * MB);
    expect(png.length).toBeGreaterThan(4.5 * MB);
    const { client } = await verifiedUser(backend, 40);
    const created = await client.post<Batch>('/api/batches', { tool: 'background-remover', size: 4 });
    expect(created.status).toBe(201);
    const { id, price } = created.body;
    const sends: [Photo, 'json' | 'multipart'][] = [
      [{ name: 'IMG_2001.jpg', bytes: jpeg, type: 'image/jpeg' }, 'json'],
      [{ name: 'Screenshot 1.png', bytes: png, type: 'image/png' }, 'json'],
      [{ name: 'IMG_2002.jpg', bytes: jpeg, type: 'image/jpeg' }, 'multipart'],
      [{ name: 'Screenshot 2.png', bytes: png, type: 'image/png' }, 'multipart'],
    ];
    for (const [item, [photo, as]] of sends.entries()) {
      const answer = await sendPhoto(sessionHeaders(client), id, item, photo, as);
      expect(answer.status, `${photo.name} as ${as}: ${answer.body.error}`).toBe(202);
      expect(answer.body).toMatchObject({ item, charged: price });
    }
    const ended = await untilEnded(client, id);
    expect(ended.counts).toEqual({ waiting: 0, running: 0, done: 4, failed: 0 });
    expect(ended.items.map((image) => image.charged)).toEqual([price, price, price, price]);
    expect(await tokensOf(client)).toBe(40 - 4 * price);
    expect(await zipEntryNames(client, id)).toEqual([
      'IMG_2001-background-removed.webp',
      'IMG_2002-background-removed.webp',
      'README.txt',
      'Screenshot 1-background-removed.webp',
      'Screenshot 2-background-removed.webp',
    ]);
  });

  it('runs ten of them through the API with a key, each charged once, with one zip back', async () => {
    const { client } = await verifiedUser(backend, 60);
    const made = await client.post<CreatedApiKey>('/api/keys', { name: 'Photo uploader' });
    expect(made.status).toBe(201);
    const withKey = { authorization: `Bearer ${made.body.key}` };
    const created = await backend.app.request('/api/batches', {
      method: 'POST',
      headers: { ...withKey, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'image-analyzer', size: 10 }),
    });
    expect(created.status).toBe(201);
    const { id, price } = (await created.json()) as Batch;
    const names: string[] = [];
    for (let item = 0; item < 10; item++) {
      const photo: Photo =
        item % 2 === 0
          ? { name: `IMG_30${item}0.jpg`, bytes: jpeg, type: 'image/jpeg' }
          : { name: `Screenshot_30${item}0.png`, bytes: png, type: 'image/png' };
      names.push(photo.name);
      const answer = await sendPhoto(withKey, id, item, photo, item < 5 ? 'json' : 'multipart');
      expect(answer.status, `${photo.name}: ${answer.body.error}`).toBe(202);
      expect(answer.body.charged).toBe(price);
    }
    const ended = await untilEnded(client, id);
    expect(ended.counts).toEqual({ waiting: 0, running: 0, done: 10, failed: 0 });
    expect(ended).toMatchObject({ charged: 10 * price, refunded: 0 });
    expect(await tokensOf(client)).toBe(60 - 10 * price);
    // One zip: the analyses as keywords.csv, a row a photo.
    const zip = await backend.app.request(`/api/batches/${id}/download`, { headers: withKey });
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(['keywords.csv', 'README.txt']);
    expect(keywordsCsvFileNames(entries)).toEqual(names);
  });
});
