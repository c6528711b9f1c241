// A tool call answered with its image (issue 39): with an Accept that prefers an image, a finished
// job's first output is the body (its own type, the spec's download name, the job and the tokens in
// headers), read from the same storage as GET /api/files/:id. A job still running is a 202 in JSON,
// a failure a 502 in JSON (refunded), refusals stay JSON, and Image Analyzer asked for an image only
// is a 406 before anything is charged.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { jobs, ledger } from '../../src/server/db/schema';
import type { InferenceProvider } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

/** The demo's labelled drawings under a paid name, which a test may hold back or make fail. */
function controllableProvider() {
  const demo = paidLookalikeOfDemo();
  const control = { mode: 'finish' as 'finish' | 'hold' | 'fail', release: () => {} };
  let held = Promise.resolve();
  const provider: InferenceProvider = {
    ...demo,
    async run(input, ...rest) {
      if (control.mode === 'fail') throw new Error('provider exploded');
      if (control.mode === 'hold') await held;
      return demo.run(input, ...rest);
    },
  };
  const hold = () => {
    control.mode = 'hold';
    held = new Promise((resolve) => {
      control.release = () => {
        control.mode = 'finish';
        resolve();
      };
    });
  };
  return { provider, control, hold };
}

let backend: TestBackend;
let png: Buffer;
const { provider, control, hold } = controllableProvider();
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(provider) });
  png = await pngBytes(40, 30);
});
afterAll(() => backend.stop());
afterEach(async () => {
  control.release();
  control.mode = 'finish';
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

/** A JSON call with these headers, the answer kept raw (its body may be an image). */
function call(client: TestClient, path: string, body: unknown, headers: Record<string, string>) {
  return backend.app.request(path, {
    method: 'POST',
    headers: {
      origin: backend.config.appUrl,
      'x-forwarded-for': client.ip,
      cookie: client.cookieHeader(),
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const jobsOf = (userId: string) => backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));
const debitsOf = async (userId: string) =>
  (await backend.database.db.select().from(ledger).where(eq(ledger.userId, userId)))
    .filter((row) => row.reason === 'job' || row.reason === 'refund')
    .map((row) => `${row.reason} ${row.delta}`)
    .sort();

describe('a finished job answered as its image', () => {
  it.each([
    [
      'image/png',
      'Background Remover',
      '/api/remove-background',
      {},
      2,
      'image/png',
      'background-removed.png',
      [40, 30],
    ],
    [
      'image/*',
      'Image Upscaler',
      '/api/upscale-image',
      { scale: 4 },
      1,
      'image/webp',
      'upscaled-image.webp',
      [160, 120],
    ],
    [
      'image/webp, application/json',
      'Colorizer',
      '/api/colorize-image',
      {},
      6,
      'image/webp',
      'colorized-image.webp',
      [40, 30],
    ],
  ] as const)(
    'Accept: %s, %s: the output bytes, typed and named, with the job and the tokens in headers',
    async (accept, _name, path, fields, cost, type, fileName, [width, height]) => {
      const { client, id } = await verifiedUser(backend, 50);
      const response = await call(client, path, { image: dataUrl(png), ...fields }, { accept });
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(response.headers.get('content-disposition')).toBe(`inline; filename="${fileName}"`);
      expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(response.headers.get('x-tokens-charged')).toBe(String(cost));
      expect(response.headers.get('x-tokens-remaining')).toBe(String(50 - cost));
      expect(response.headers.get('x-demo')).toBe('false');
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe(type.slice('image/'.length));
      expect([meta.width, meta.height]).toEqual([width, height]);

      // The job the header names is the caller's, charged once, and its first output is these bytes.
      const jobId = response.headers.get('x-job-id') as string;
      const [job] = await jobsOf(id);
      expect(job).toMatchObject({ id: jobId, status: 'succeeded', charged: cost });
      expect(await tokensOf(client)).toBe(50 - cost);
      expect(await debitsOf(id)).toEqual([`job -${cost}`]);
      const view = await client.get<{ output: string[] }>(`/api/jobs/${jobId}`);
      const stored = await client.fetchRaw(view.body.output[0] as string);
      expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('answers a multipart call with Accept: image/png as curl -F would get it, and its retry with the same bytes', async () => {
    const { client, id } = await verifiedUser(backend, 50);
    const send = async () => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
      return backend.app.request('/api/remove-background', {
        method: 'POST',
        headers: {
          origin: backend.config.appUrl,
          'x-forwarded-for': client.ip,
          cookie: client.cookieHeader(),
          accept: 'image/png',
          'idempotency-key': 'image-answer-retry',
        },
        body: form,
      });
    };
    const first = await send();
    const retry = await send();
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.headers.get('x-job-id')).toBe(first.headers.get('x-job-id'));
    expect(Buffer.from(await retry.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
    expect(retry.headers.get('x-tokens-remaining')).toBe('48');
    expect(await jobsOf(id)).toHaveLength(1);
    expect(await debitsOf(id)).toEqual(['job -2']);
  });

  it('keeps JSON for Accept: application/json, */* or none, and says the answer varies with Accept', async () => {
    const { client } = await verifiedUser(backend, 50);
    for (const accept of ['application/json', '*/*', undefined]) {
      const response = await call(client, '/api/remove-background', { image: dataUrl(png) }, accept ? { accept } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(await response.json()).toMatchObject({ success: true, charged: 2, output: expect.any(String) });
    }
  });
});

describe('what stays JSON', () => {
  it('a job not finished within its wait: 202 JSON, then the job reads as usual', async () => {
    const { client } = await verifiedUser(backend, 50);
    hold();
    const response = await call(
      client,
      '/api/upscale-image',
      { image: dataUrl(png), scale: 2 },
      { accept: 'image/*', prefer: 'wait=0' },
    );
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const pending = (await response.json()) as { jobId: string };
    expect(pending).toMatchObject({ success: false, pending: true, charged: 1, balance: 49 });
    control.release();
    const done = await eventually(async () => {
      const view = await client.get<{ status: string }>(`/api/jobs/${pending.jobId}`);
      return view.body.status === 'succeeded' && view;
    });
    expect(done.status).toBe(200);
  });

  it('a failed job: 502 JSON, refunded', async () => {
    const { client, id } = await verifiedUser(backend, 50);
    control.mode = 'fail';
    const response = await call(client, '/api/remove-background', { image: dataUrl(png) }, { accept: 'image/png' });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ success: false, refunded: true, balance: 50 });
    expect(await debitsOf(id)).toEqual(['job -2', 'refund 2']);
  });

  it('refusals: 401, 400, 402 in JSON', async () => {
    const visitor = new TestClient(backend.app, backend.config.appUrl);
    const anonymous = await call(visitor, '/api/remove-background', { image: dataUrl(png) }, { accept: 'image/png' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ success: false, error: TOOL_MESSAGES.signInRequired });

    const { client, id } = await verifiedUser(backend, 0);
    const bad = await call(client, '/api/upscale-image', { image: dataUrl(png), scale: 3 }, { accept: 'image/png' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ success: false, error: 'scale: must be 2, 4 or 6' });
    const broke = await call(client, '/api/remove-background', { image: dataUrl(png) }, { accept: 'image/png' });
    expect(broke.status).toBe(402);
    expect(broke.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(await broke.json()).toEqual({ success: false, error: TOOL_MESSAGES.notEnoughTokens, balance: 0 });
    expect(await jobsOf(id)).toEqual([]);
  });
});

describe('Image Analyzer has no image', () => {
  it('asked for an image only: 406 JSON, nothing charged, no job', async () => {
    const { client, id } = await verifiedUser(backend, 50);
    for (const accept of ['image/*', 'image/png', 'image/webp, application/json;q=0']) {
      const response = await call(client, '/api/analyze-image', { image: dataUrl(png) }, { accept });
      expect(response.status).toBe(406);
      expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(await response.json()).toEqual({
        success: false,
        error:
          'Image Analyzer answers keywords and colors as JSON, not an image. Please send Accept: application/json.',
      });
    }
    expect(await tokensOf(client)).toBe(50);
    expect(await jobsOf(id)).toEqual([]);
    expect(await debitsOf(id)).toEqual([]);
  });

  it('asked for an image or JSON: its JSON analysis as always', async () => {
    const { client } = await verifiedUser(backend, 50);
    const response = await call(
      client,
      '/api/analyze-image',
      { image: dataUrl(png) },
      { accept: 'image/png, application/json' },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, charged: 1, keywords: expect.any(Array) });
  });
});

describe('over a real socket, as curl sends it', () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  let dir: string;
  beforeAll(async () => {
    server = await new Promise((resolve) => {
      const s = serve({ fetch: backend.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
    dir = mkdtempSync(path.join(os.tmpdir(), 'pp-curl-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('curl -F image=@photo.png -H "Accept: image/png" saves the PNG answer (with its alpha channel)', async () => {
    const { client } = await verifiedUser(backend, 50);
    writeFileSync(path.join(dir, 'photo.png'), png);
    const { stdout } = await promisify(execFile)('curl', [
      '--silent',
      '--show-error',
      '--dump-header',
      '-',
      '--output',
      path.join(dir, 'result.png'),
      '-H',
      'Accept: image/png',
      '-H',
      `Origin: ${backend.config.appUrl}`,
      '-H',
      `X-Forwarded-For: ${client.ip}`,
      '-H',
      `Cookie: ${client.cookieHeader()}`,
      '-F',
      `image=@${path.join(dir, 'photo.png')}`,
      `http://127.0.0.1:${port}/api/remove-background`,
    ]);
    expect(stdout).toMatch(/^HTTP\/1\.1 200/);
    expect(stdout).toMatch(/^content-type: image\/png\r$/im);
    expect(stdout).toMatch(/^content-disposition: inline; filename="background-removed.png"\r$/im);
    expect(stdout).toMatch(/^x-tokens-remaining: 48\r$/im);
    const meta = await sharp(readFileSync(path.join(dir, 'result.png'))).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 40, 30, true]);
    expect(await tokensOf(client)).toBe(48);
  });
});
