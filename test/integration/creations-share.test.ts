// Share links of My Creations (issue 17): off by default, an unguessable revocable token, viewable
// signed out, and through it the shared outputs only, nothing else of the owner's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList, SharedCreation, ShareLink } from '../../src/contract/creations';
import { jobs } from '../../src/server/db/schema';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
/** A built web app: the share page's HTML is its shell with the creation's head. */
const webDistDir = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
writeFileSync(
  path.join(webDistDir, 'index.html'),
  '<!doctype html><html><head><meta charset="UTF-8" /><title>Picture Palette</title></head><body><div id="root"></div></body></html>',
);
beforeAll(async () => {
  backend = await createTestBackend({ webDistDir });
});
afterAll(async () => {
  await backend.stop();
  rmSync(webDistDir, { recursive: true, force: true });
});

const signedOut = (path: string) => backend.app.request(path);

async function upscaled(client: TestClient) {
  const answer = await client.post<{ jobId: string }>('/api/upscale-image', {
    image: dataUrl(await pngBytes(40, 30)),
    scale: 2,
  });
  expect(answer.status).toBe(200);
  return answer.body.jobId;
}

const tokenOf = (url: string) => url.split('/shared/')[1] ?? '';

describe('share links', () => {
  it('are off by default; on, the link shows the outputs signed out and nothing else', async () => {
    const { client } = await verifiedUser(backend);
    const jobId = await upscaled(client);
    const before = (await client.get<CreationList>('/api/creations')).body.creations[0];
    expect(before?.shareUrl).toBeNull();

    const shared = await client.post<ShareLink>(`/api/creations/${jobId}/share`);
    expect(shared.status).toBe(200);
    expect(shared.body.shareUrl).toMatch(new RegExp(`^${backend.config.appUrl}/shared/[A-Za-z0-9_-]{32}$`));
    expect((await client.post<ShareLink>(`/api/creations/${jobId}/share`)).body).toEqual(shared.body);
    expect((await client.get<CreationList>('/api/creations')).body.creations[0]?.shareUrl).toBe(shared.body.shareUrl);

    const token = tokenOf(shared.body.shareUrl);
    const page = await signedOut(`/api/shared/${token}`);
    expect(page.status).toBe(200);
    const creation = (await page.json()) as SharedCreation;
    expect(creation).toEqual({
      tool: 'image-upscaler',
      createdAt: before?.createdAt,
      outputs: [{ url: `/api/shared/${token}/files/0`, width: 80, height: 60, format: 'webp' }],
      keywords: null,
      colors: null,
    });
    const image = await signedOut(creation.outputs[0]?.url ?? '');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    // The owner's files themselves stay private, and the token reaches no other index.
    expect((await signedOut(before?.outputs[0]?.url ?? '')).status).toBe(401);
    expect((await signedOut(`/api/shared/${token}/files/1`)).status).toBe(404);
  });

  it('stop working when revoked or when the creation is deleted', async () => {
    const { client } = await verifiedUser(backend);
    const jobId = await upscaled(client);
    const token = tokenOf((await client.post<ShareLink>(`/api/creations/${jobId}/share`)).body.shareUrl);
    expect((await client.request('DELETE', `/api/creations/${jobId}/share`)).status).toBe(204);
    expect((await signedOut(`/api/shared/${token}`)).status).toBe(404);
    expect((await signedOut(`/api/shared/${token}/files/0`)).status).toBe(404);
    expect((await client.get<CreationList>('/api/creations')).body.creations[0]?.shareUrl).toBeNull();

    const again = tokenOf((await client.post<ShareLink>(`/api/creations/${jobId}/share`)).body.shareUrl);
    expect(again).not.toBe(token);
    expect((await client.request('DELETE', `/api/creations/${jobId}`)).status).toBe(204);
    expect((await signedOut(`/api/shared/${again}`)).status).toBe(404);
  });

  it('only the owner shares a finished job; made-up tokens answer 404', async () => {
    const { client, id } = await verifiedUser(backend);
    const jobId = await upscaled(client);
    const other = (await verifiedUser(backend)).client;
    expect((await other.post(`/api/creations/${jobId}/share`)).status).toBe(404);
    expect((await other.request('DELETE', `/api/creations/${jobId}/share`)).status).toBe(404);
    const [queued] = await backend.database.db
      .insert(jobs)
      .values({
        userId: id,
        tool: 'image-upscaler',
        cost: 1,
        charged: 0,
        input: {},
        provider: 'demo',
        requestHash: 'x',
      })
      .returning();
    expect((await client.post(`/api/creations/${queued?.id}/share`)).status).toBe(409);
    expect((await signedOut(`/api/shared/${'a'.repeat(32)}`)).status).toBe(404);
    expect((await signedOut('/api/shared/short')).status).toBe(404);
  });

  it('answer the page with link-preview tags of the picture in the first HTML, and none once revoked', async () => {
    const { client } = await verifiedUser(backend);
    const jobId = await upscaled(client);
    const shareUrl = (await client.post<ShareLink>(`/api/creations/${jobId}/share`)).body.shareUrl;
    const token = tokenOf(shareUrl);
    const origin = backend.config.appUrl.replace(/\/$/, '');

    const page = await signedOut(`/shared/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    const head = html.slice(0, html.indexOf('</head>'));
    const meta = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(head)?.[1] ?? null;
    expect(meta('og:title')).toBe('Made with Image Upscaler');
    expect(meta('og:description')).toMatch(
      /^Shared from Picture Palette: made with Image Upscaler on \w+ \d+, \d{4}\.$/,
    );
    expect(meta('og:url')).toBe(`${origin}/shared/${token}`);
    expect(meta('og:url')).toBe(shareUrl);
    expect(meta('og:image')).toBe(`${origin}/api/shared/${token}/files/0`);
    expect(meta('og:image:width')).toBe('80');
    expect(meta('og:image:height')).toBe('60');
    expect(meta('twitter:card')).toBe('summary_large_image');
    expect(meta('twitter:image')).toBe(meta('og:image'));
    expect(meta('robots')).toBe('noindex');
    expect(head).toContain('<title>Made with Image Upscaler · Picture Palette</title>');
    expect(html).toContain('<div id="root"></div>'); // the app still runs the page
    // The image a crawler fetches is there, signed out.
    expect((await signedOut(new URL(meta('og:image') ?? '').pathname)).status).toBe(200);

    expect((await client.request('DELETE', `/api/creations/${jobId}/share`)).status).toBe(204);
    for (const gone of [token, 'a'.repeat(32), 'short']) {
      const revoked = await signedOut(`/shared/${gone}`);
      expect(revoked.status).toBe(200); // the app says the link no longer works
      const text = await revoked.text();
      expect(text).not.toContain('og:');
      expect(text).not.toContain('twitter:');
      expect(text).toContain('<meta name="robots" content="noindex">');
      expect(text).toContain('<title>Picture Palette</title>');
    }
  });
});
