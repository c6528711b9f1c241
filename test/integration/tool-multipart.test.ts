// Tool calls with a multipart/form-data body (issue 39), as curl -F sends them: the image as a file
// part named as its JSON field, the other fields as form fields. Charged exactly as the JSON call
// (balance and ledger), the same Idempotency-Key answered with the same job across bodies with
// different boundaries, and every bad body refused with a clear message and nothing written.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES, INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../src/contract/input-limits';
import { TOOL_MESSAGES, UPLOAD_TOO_LARGE_5MB } from '../../src/contract/tools';
import { files, jobs, ledger } from '../../src/server/db/schema';
import { BODY_MESSAGES } from '../../src/server/jobs/request/tool-call-body';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

type Part = { name: string; value: string } | { name: string; file: Buffer; filename: string; type?: string };

/** A multipart body written out by hand, so a test chooses its boundary (and can break it). */
function multipart(boundary: string, parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type ?? 'image/png'}\r\n\r\n`;
    chunks.push(Buffer.from(head), 'value' in part ? Buffer.from(part.value) : part.file, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

type Answer = { status: number; body: Record<string, unknown>; headers: Headers };

/** POSTs `body` as the signed-in client would, with this Content-Type (none: the one FormData sets). */
async function post(
  client: TestClient,
  path: string,
  body: BodyInit,
  options: { type?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await backend.app.request(path, {
    method: 'POST',
    headers: {
      origin: backend.config.appUrl,
      'x-forwarded-for': client.ip,
      cookie: client.cookieHeader(),
      ...(options.type ? { 'content-type': options.type } : {}),
      ...options.headers,
    },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

const postForm = (
  client: TestClient,
  path: string,
  boundary: string,
  parts: Part[],
  headers?: Record<string, string>,
) =>
  post(client, path, new Uint8Array(multipart(boundary, parts)), {
    type: `multipart/form-data; boundary=${boundary}`,
    headers,
  });

let backend: TestBackend;
let png: Buffer;
beforeAll(async () => {
  // Paid results (the demo's drawings under a paid provider's name), so every call is charged.
  backend = await createTestBackend({ inference: routerWith(paidLookalikeOfDemo()) });
  png = await pngBytes(40, 30);
});
afterAll(() => backend.stop());
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

const ledgerOf = async (userId: string) =>
  (await backend.database.db.select().from(ledger).where(eq(ledger.userId, userId)))
    .filter((row) => row.reason === 'job' || row.reason === 'refund')
    .map((row) => ({ reason: row.reason, delta: row.delta, reference: row.reference }));
const jobsOf = (userId: string) => backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));

async function outputSize(client: TestClient, url: string) {
  const response = await client.fetchRaw(url);
  const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return { type: response.headers.get('content-type'), width: meta.width, height: meta.height };
}

describe('a multipart call is the JSON call', () => {
  it.each([
    ['Background Remover', '/api/remove-background', [] as Part[], {}, 2, { type: 'image/png', width: 40, height: 30 }],
    [
      'Image Upscaler, scale=4',
      '/api/upscale-image',
      [{ name: 'scale', value: '4' }] as Part[],
      { scale: 4 },
      1,
      { type: 'image/webp', width: 160, height: 120 },
    ],
  ])(
    '%s: the same answer, charge, ledger row and stored input',
    async (_name, path, fields, jsonFields, cost, output) => {
      const { client, id } = await verifiedUser(backend, 50);
      const json = await client.post<Record<string, unknown>>(path, { image: dataUrl(png), ...jsonFields });
      expect(json.status, JSON.stringify(json.body)).toBe(200);
      const form = await postForm(client, path, 'pp-form-1', [
        { name: 'image', file: png, filename: 'photo.png' },
        ...fields,
      ]);
      expect(form.status, JSON.stringify(form.body)).toBe(200);

      for (const answer of [json.body, form.body]) {
        expect(answer).toMatchObject({ success: true, charged: cost, demo: false });
        expect(await outputSize(client, answer.output as string)).toEqual(output);
      }
      expect(json.body.balance).toBe(50 - cost);
      expect(form.body.balance).toBe(50 - 2 * cost);
      expect(await tokensOf(client)).toBe(50 - 2 * cost);
      expect(await ledgerOf(id)).toEqual(
        expect.arrayContaining([
          { reason: 'job', delta: -cost, reference: json.body.jobId },
          { reason: 'job', delta: -cost, reference: form.body.jobId },
        ]),
      );
      expect(await ledgerOf(id)).toHaveLength(2);
      // Both jobs hold the same input: the uploaded bytes, stored once each.
      const [first, second] = await Promise.all(
        [json.body.jobId, form.body.jobId].map(async (jobId) => {
          const [job] = await backend.database.db
            .select()
            .from(jobs)
            .where(eq(jobs.id, jobId as string));
          const inputs = await backend.database.db
            .select()
            .from(files)
            .where(eq(files.jobId, jobId as string));
          const input = inputs.find((file) => file.kind === 'input');
          return {
            cost: job?.cost,
            charged: job?.charged,
            input: job?.input,
            bytes: input ? await backend.storage.get(input.storageKey) : null,
          };
        }),
      );
      expect(second).toEqual(first);
      expect(second?.bytes?.equals(png)).toBe(true);
    },
  );

  it('takes an image field as text too (a data URL), and a prompt that looks like a number as text', async () => {
    const { client } = await verifiedUser(backend, 100);
    const swap = await postForm(client, '/api/background-swap', 'pp-form-2', [
      { name: 'prompt', value: '2024' },
      { name: 'image', value: dataUrl(png) },
      { name: 'num_outputs', value: '2' },
    ]);
    expect(swap.status, JSON.stringify(swap.body)).toBe(200);
    // Background Swap's local result is a labelled preview (free): the point here is the fields.
    expect(swap.body).toMatchObject({ success: true, charged: 0, demo: true });
    expect(swap.body.output).toHaveLength(2);
    const [job] = await backend.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, swap.body.jobId as string));
    expect(job?.input).toMatchObject({ input: { prompt: '2024', numOutputs: 2 } });
  });

  it('accepts a FormData body as fetch sends it, its boundary chosen by the client', async () => {
    const { client } = await verifiedUser(backend, 50);
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    form.append('scale', '2');
    const answer = await post(client, '/api/upscale-image', form);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ success: true, charged: 1, balance: 49 });
  });
});

describe('Idempotency-Key with multipart bodies', () => {
  it('answers the same fields and bytes with the same job, charged once, whatever the boundary and order', async () => {
    const { client, id } = await verifiedUser(backend, 50);
    const key = { 'idempotency-key': 'multipart-retry-1' };
    const first = await postForm(
      client,
      '/api/upscale-image',
      'boundary-one',
      [
        { name: 'image', file: png, filename: 'a.png' },
        { name: 'scale', value: '4' },
      ],
      key,
    );
    const again = await postForm(
      client,
      '/api/upscale-image',
      'another-boundary-2',
      [
        { name: 'scale', value: '4' },
        { name: 'image', file: png, filename: 'renamed.png', type: 'application/octet-stream' },
      ],
      key,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.jobId).toBe(first.body.jobId);
    expect(await tokensOf(client)).toBe(49);
    expect(await jobsOf(id)).toHaveLength(1);
    expect(await ledgerOf(id)).toEqual([{ reason: 'job', delta: -1, reference: first.body.jobId }]);

    // The same key with other fields or other bytes: 422, as for JSON, and nothing more charged.
    const otherScale = await postForm(
      client,
      '/api/upscale-image',
      'boundary-three',
      [
        { name: 'image', file: png, filename: 'a.png' },
        { name: 'scale', value: '2' },
      ],
      key,
    );
    const otherBytes = await postForm(
      client,
      '/api/upscale-image',
      'boundary-four',
      [
        { name: 'image', file: await pngBytes(40, 30, '#00ff00'), filename: 'a.png' },
        { name: 'scale', value: '4' },
      ],
      key,
    );
    for (const answer of [otherScale, otherBytes]) {
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ success: false, error: TOOL_MESSAGES.idempotencyMismatch });
    }
    expect(await tokensOf(client)).toBe(49);
    expect(await jobsOf(id)).toHaveLength(1);
    expect(await ledgerOf(id)).toHaveLength(1);
  });
});

describe('bad multipart bodies change nothing', () => {
  type BadCase = [name: string, send: (client: TestClient) => Promise<Answer>, status: number, error: string];
  const image = (file: Buffer, filename = 'photo.png'): Part => ({ name: 'image', file, filename });
  const cases = (): BadCase[] => [
    [
      'an unknown field',
      (client) =>
        postForm(client, '/api/upscale-image', 'b1', [
          image(png),
          { name: 'scale', value: '2' },
          { name: 'size', value: 'big' },
        ]),
      400,
      'size: is not a field of Image Upscaler (its fields: userId, image, scale, targetWidth, targetHeight, printSize, dpi, outputFormat, outputQuality, keepLocation, webhook)',
    ],
    [
      'two files for one field',
      (client) => postForm(client, '/api/remove-background', 'b2', [image(png, 'a.png'), image(png, 'b.png')]),
      400,
      'image: must be one file, not 2',
    ],
    [
      'a field given twice',
      (client) =>
        postForm(client, '/api/upscale-image', 'b3', [
          image(png),
          { name: 'scale', value: '2' },
          { name: 'scale', value: '4' },
        ]),
      400,
      'scale: must be given once, not 2 times',
    ],
    [
      'a file for a text field',
      (client) =>
        postForm(client, '/api/upscale-image', 'b4', [
          image(png),
          { name: 'scale', file: Buffer.from('4'), filename: 's.txt' },
        ]),
      400,
      'scale: must be a form field, not a file',
    ],
    [
      'a file that is not an image',
      (client) =>
        postForm(client, '/api/remove-background', 'b5', [
          { name: 'image', file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), filename: 'x.png' },
        ]),
      400,
      INPUT_MESSAGES.imageWrongFormat,
    ],
    [
      'an image over the 10 MB limit',
      (client) => postForm(client, '/api/remove-background', 'b6', [image(Buffer.alloc(IMAGE_MAX_BYTES + 1024))]),
      413,
      INPUT_MESSAGES.imageTooLarge(IMAGE_MAX_BYTES),
    ],
    [
      'an image over the spec 5 MB limit of Background Swap',
      (client) =>
        postForm(client, '/api/background-swap', 'b7', [
          { name: 'prompt', value: 'on a beach' },
          image(Buffer.alloc(5 * 1024 * 1024 + 1024)),
        ]),
      413,
      UPLOAD_TOO_LARGE_5MB,
    ],
    [
      'a body over the tool-call limit',
      (client) => postForm(client, '/api/remove-background', 'b8', [image(Buffer.alloc(TOOL_BODY_MAX_BYTES + 1))]),
      413,
      INPUT_MESSAGES.requestTooLarge,
    ],
    [
      'a scale the tool does not offer',
      (client) => postForm(client, '/api/upscale-image', 'b9', [image(png), { name: 'scale', value: '3' }]),
      400,
      'scale: must be 2, 4 or 6',
    ],
    [
      'too many outputs',
      (client) =>
        postForm(client, '/api/generate-image', 'b10', [
          { name: 'prompt', value: 'a fox' },
          { name: 'numOutputs', value: '9' },
        ]),
      400,
      'numOutputs: must be from 1 to 4',
    ],
    [
      'no image',
      (client) => postForm(client, '/api/upscale-image', 'b11', [{ name: 'scale', value: '2' }]),
      400,
      'image: is required',
    ],
    [
      'a cut-off multipart body',
      (client) =>
        post(client, '/api/remove-background', new Uint8Array(multipart('b12', [image(png)]).subarray(0, 120)), {
          type: 'multipart/form-data; boundary=b12',
        }),
      400,
      BODY_MESSAGES.badMultipart,
    ],
    [
      'multipart without a boundary',
      (client) =>
        post(client, '/api/remove-background', new Uint8Array(multipart('b13', [image(png)])), {
          type: 'multipart/form-data',
        }),
      400,
      BODY_MESSAGES.badMultipart,
    ],
    [
      'a url-encoded form (curl -d)',
      (client) => post(client, '/api/upscale-image', 'scale=2', { type: 'application/x-www-form-urlencoded' }),
      415,
      "A tool call's body must be application/json or multipart/form-data, not application/x-www-form-urlencoded.",
    ],
    [
      'plain text',
      (client) => post(client, '/api/generate-image', '{"prompt":"a fox"}', { type: 'text/plain' }),
      415,
      "A tool call's body must be application/json or multipart/form-data, not text/plain.",
    ],
  ];

  it.each(cases().map(([name]) => [name]))('%s', async (name) => {
    const [, send, status, error] = cases().find(([caseName]) => caseName === name) as BadCase;
    const { client, id } = await verifiedUser(backend, 200);
    const answer = await send(client);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toEqual({ success: false, error });
    expect(answer.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(await tokensOf(client)).toBe(200);
    expect(await jobsOf(id)).toEqual([]);
    expect(await ledgerOf(id)).toEqual([]);
    expect(await backend.database.db.select().from(files).where(eq(files.userId, id))).toEqual([]);
  });

  it('an over-limit image is refused with the JSON call own sentence', async () => {
    const { client } = await verifiedUser(backend, 200);
    const big = Buffer.alloc(IMAGE_MAX_BYTES + 1024);
    const json = await client.post<Record<string, unknown>>('/api/remove-background', { image: dataUrl(big) });
    const form = await postForm(client, '/api/remove-background', 'b14', [
      { name: 'image', file: big, filename: 'big.png' },
    ]);
    expect(form.status).toBe(json.status);
    expect(form.body).toEqual(json.body);
  });
});
