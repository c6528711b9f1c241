// Refining a cut-out by hand through the API (issue 58 item 1, decision 082): the model's mask to
// start from, a new version from the original photo and an edited mask with the job's finishing
// applied again, free (balance and ledger unchanged), listed as versions; the owner only; a bad
// mask refused with nothing stored. On both databases: it writes jobs and files and must not charge.
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creation, CreationList } from '../../src/contract/creations';
import { REFINE_MESSAGES } from '../../src/contract/refine';
import { files, jobs, ledger } from '../../src/server/db/schema';
import { sendRequest, type TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  // A paid provider (the demo's results would be free previews): refining must not charge a paid result.
  backend = await createTestBackend({ inference: routerWith(paidLookalikeOfDemo()) });
});
afterAll(() => backend.stop());

const WIDTH = 400;
const HEIGHT = 300;

type ToolAnswer = { success: boolean; jobId: string; output: string };

async function removeBackground(client: TestClient, finish: Record<string, unknown> = {}) {
  const answer = await client.post<ToolAnswer>('/api/remove-background', {
    image: dataUrl(await pngBytes(WIDTH, HEIGHT, '#c0392b')),
    ...finish,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A mask of `width` x `height`: black (erased) on its left half, white (kept) on its right. */
async function halfErased(width = WIDTH, height = HEIGHT, format: 'png' | 'webp' = 'png') {
  const white = await sharp({
    create: { width: width - Math.floor(width / 2), height, channels: 3, background: '#fff' },
  })
    .png()
    .toBuffer();
  const mask = sharp({ create: { width, height, channels: 3, background: '#000' } })
    .composite([{ input: white, left: Math.floor(width / 2), top: 0 }])
    .toColourspace('b-w');
  return format === 'png' ? mask.png().toBuffer() : mask.webp({ lossless: true }).toBuffer();
}

const refine = (client: TestClient, jobId: string, body: unknown) =>
  client.post<Creation & { error?: string }>(`/api/creations/${jobId}/refine`, body);

/** POSTs a multipart form to `path` as `client`. */
async function postForm(client: TestClient, path: string, form: FormData) {
  const response = await backend.app.request(path, {
    method: 'POST',
    headers: { origin: backend.config.appUrl, 'x-forwarded-for': client.ip, cookie: client.cookieHeader() },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Creation & { error?: string } };
}

async function bytesOf(client: TestClient, url: string) {
  const response = await client.fetchRaw(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The alpha (or only channel) at (x, y). */
async function channelAt(bytes: Buffer, x: number, y: number, channel: 'alpha' | 0) {
  const image = sharp(bytes).extract({ left: x, top: y, width: 1, height: 1 });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return channel === 'alpha' ? data[info.channels - 1] : data[0];
}

async function rgbAt(bytes: Buffer, x: number, y: number) {
  const { data } = await sharp(bytes).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  return [...data];
}

async function storedRows(userId: string) {
  const db = backend.database.db;
  const [jobRows] = await db.select({ n: count() }).from(jobs).where(eq(jobs.userId, userId));
  const [fileRows] = await db.select({ n: count() }).from(files).where(eq(files.userId, userId));
  const [ledgerRows] = await db.select({ n: count() }).from(ledger).where(eq(ledger.userId, userId));
  return { jobs: jobRows?.n, files: fileRows?.n, ledger: ledgerRows?.n };
}

describe('refining a Background Remover result by hand', () => {
  it("serves the model's mask, and a mask that erases half makes a transparent half in a new version, free", async () => {
    const { client, id } = await verifiedUser(backend);
    const original = await removeBackground(client);

    const mask = await client.fetchRaw(`/api/creations/${original.jobId}/mask`);
    expect(mask.status).toBe(200);
    expect(mask.headers.get('content-type')).toBe('image/png');
    const maskMeta = await sharp(Buffer.from(await mask.arrayBuffer())).metadata();
    expect([maskMeta.width, maskMeta.height, maskMeta.channels]).toEqual([WIDTH, HEIGHT, 1]);

    const tokens = await tokensOf(client);
    const before = await storedRows(id);
    const answer = await refine(client, original.jobId, { mask: dataUrl(await halfErased()) });
    expect(answer.status, answer.body.error).toBe(201);
    const version = answer.body;
    expect(version).toMatchObject({ tool: 'background-remover', status: 'succeeded', charged: 0, refunded: 0 });
    expect(version.id).not.toBe(original.jobId);
    expect(version.versions).toEqual([original.jobId, version.id]);

    const result = await bytesOf(client, version.outputs[0]?.url ?? '');
    const meta = await sharp(result).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', WIDTH, HEIGHT, true]);
    expect(await channelAt(result, 50, 150, 'alpha')).toBe(0);
    expect(await channelAt(result, 350, 150, 'alpha')).toBe(255);

    // Free: the balance and the ledger as they were; one job with its photo, result and mask more.
    expect(await tokensOf(client)).toBe(tokens);
    const after = await storedRows(id);
    expect(after).toEqual({ jobs: Number(before.jobs) + 1, files: Number(before.files) + 3, ledger: before.ledger });

    // My Creations lists both with their versions; the new version's mask is the edited one.
    const list = await client.get<CreationList>('/api/creations?tool=background-remover');
    expect(list.body.creations.map((c) => [c.id, c.versions])).toEqual([
      [version.id, [original.jobId, version.id]],
      [original.jobId, [original.jobId, version.id]],
    ]);
    const edited = await bytesOf(client, `/api/creations/${version.id}/mask`);
    expect([await channelAt(edited, 50, 150, 0), await channelAt(edited, 350, 150, 0)]).toEqual([0, 255]);
  });

  it('applies the job’s finishing again (white 2000 px square) and takes a smaller mask and a multipart file', async () => {
    const { client } = await verifiedUser(backend);
    const original = await removeBackground(client, { background: '#ffffff', size: 2000 });
    const tokens = await tokensOf(client);

    const form = new FormData();
    // Half the photo's size, its shape: scaled up to the photo.
    form.append('mask', new Blob([new Uint8Array(await halfErased(WIDTH / 2, HEIGHT / 2, 'webp'))]), 'mask.webp');
    const answer = await postForm(client, `/api/creations/${original.jobId}/refine`, form);
    expect(answer.status, answer.body.error).toBe(201);
    expect(answer.body.settings).toMatchObject({ background: '#ffffff', size: 2000 });

    const before = await bytesOf(client, original.output);
    const after = await bytesOf(client, answer.body.outputs[0]?.url ?? '');
    const meta = await sharp(after).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([2000, 2000, false]);
    // The whole photo filled the square's width; the kept right half alone is centred, white around it.
    expect(await rgbAt(before, 100, 1000)).toEqual([0xc0, 0x39, 0x2b]);
    expect(await rgbAt(after, 100, 1000)).toEqual([255, 255, 255]);
    expect(await rgbAt(after, 1000, 1000)).toEqual([0xc0, 0x39, 0x2b]);
    expect(await tokensOf(client)).toBe(tokens);

    // A version refined again is another version of the same original.
    const again = await refine(client, answer.body.id, { mask: dataUrl(await halfErased()) });
    expect(again.status, again.body.error).toBe(201);
    expect(again.body.versions).toEqual([original.jobId, answer.body.id, again.body.id]);
  });

  it("another account's result is not found, its mask neither, and nothing is stored", async () => {
    const owner = await verifiedUser(backend);
    const original = await removeBackground(owner.client);
    const other = await verifiedUser(backend);
    const before = await storedRows(other.id);

    const answer = await refine(other.client, original.jobId, { mask: dataUrl(await halfErased()) });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe(REFINE_MESSAGES.noSuchCreation);
    expect((await other.client.fetchRaw(`/api/creations/${original.jobId}/mask`)).status).toBe(404);
    expect(await storedRows(other.id)).toEqual(before);
    expect((await owner.client.get<CreationList>('/api/creations')).body.creations).toHaveLength(1);
  });

  it('refuses a bad mask with a sentence (400), storing nothing and charging nothing', async () => {
    const { client, id } = await verifiedUser(backend);
    const original = await removeBackground(client);
    const tokens = await tokensOf(client);
    const before = await storedRows(id);
    const path = `/api/creations/${original.jobId}/refine`;

    const text = new FormData();
    text.append('mask', new Blob(['white where the subject stays']), 'mask.txt');
    const jpeg = await sharp(await halfErased())
      .jpeg()
      .toBuffer();
    const refusals: [string, Promise<{ status: number; body: { error?: string } }>, string | RegExp][] = [
      ['no mask', refine(client, original.jobId, {}), REFINE_MESSAGES.maskMissing],
      ['not an image', refine(client, original.jobId, { mask: 'a mask, honest' }), REFINE_MESSAGES.maskWrongType],
      ['a text file', postForm(client, path, text), REFINE_MESSAGES.maskWrongType],
      ['a JPEG', refine(client, original.jobId, { mask: dataUrl(jpeg, 'image/jpeg') }), REFINE_MESSAGES.maskWrongType],
      [
        'another shape',
        refine(client, original.jobId, { mask: dataUrl(await halfErased(300, 300)) }),
        REFINE_MESSAGES.maskWrongSize(300, 300, WIDTH, HEIGHT),
      ],
      [
        'larger than the photo',
        refine(client, original.jobId, { mask: dataUrl(await halfErased(WIDTH * 2, HEIGHT * 2)) }),
        REFINE_MESSAGES.maskWrongSize(WIDTH * 2, HEIGHT * 2, WIDTH, HEIGHT),
      ],
    ];
    for (const [name, sent, error] of refusals) {
      const answer = await sent;
      expect(answer.status, name).toBe(400);
      expect(answer.body.error, name).toEqual(error);
    }
    expect(await storedRows(id)).toEqual(before);
    expect(await tokensOf(client)).toBe(tokens);
  });

  it("refines with the owner's API key too (no cookie, no Origin), and another account's key hears 404", async () => {
    const { client } = await verifiedUser(backend);
    const original = await removeBackground(client);
    const made = await client.post<{ key: string }>('/api/keys', { name: 'shop script' });
    expect(made.status).toBe(201);
    const withKey = (key: string, method: string, path: string, body?: unknown) =>
      sendRequest<Creation & { error?: string }>(backend.app, method, path, {
        body,
        headers: { authorization: `Bearer ${key}` },
      });
    const mask = await withKey(made.body.key, 'GET', `/api/creations/${original.jobId}/mask`);
    expect(mask.status).toBe(200);
    const answer = await withKey(made.body.key, 'POST', `/api/creations/${original.jobId}/refine`, {
      mask: dataUrl(await halfErased()),
    });
    expect(answer.status, answer.body.error).toBe(201);
    expect(answer.body.versions).toEqual([original.jobId, answer.body.id]);

    const other = await verifiedUser(backend);
    const otherKey = (await other.client.post<{ key: string }>('/api/keys', { name: 'theirs' })).body.key;
    const refused = await withKey(otherKey, 'POST', `/api/creations/${original.jobId}/refine`, {
      mask: dataUrl(await halfErased()),
    });
    expect(refused.status).toBe(404);
  });

  it('refuses a result of another tool (409) and a job that is not there (404)', async () => {
    const { client } = await verifiedUser(backend);
    const upscale = await client.post<ToolAnswer>('/api/upscale-image', {
      image: dataUrl(await pngBytes(64, 48)),
      scale: 2,
    });
    const mask = dataUrl(await halfErased(64, 48));
    const answer = await refine(client, upscale.body.jobId, { mask });
    expect([answer.status, answer.body.error]).toEqual([409, REFINE_MESSAGES.notRefinable]);
    const missing = await refine(client, '00000000-0000-4000-8000-000000000000', { mask });
    expect([missing.status, missing.body.error]).toEqual([404, REFINE_MESSAGES.noSuchCreation]);
  });
});
