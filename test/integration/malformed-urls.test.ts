// Addresses with broken percent-encoding (issue 37): `/shared/%` threw URIError in the web router and
// left a blank page. The server answers every such request itself, never with a 500: the API with 400
// before any route reads the address, the web app's pages with the shell and 404 (the app's router
// then shows its not-found screen), files with 404.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { BROKEN_URL_ENCODING_ERROR } from '../../src/server/security/url-encoding';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { verifiedUser } from '../support/tool-fixtures';

/** Long enough to get compressed twins, as the built one has. */
const SHELL = `<!doctype html><title>Picture Palette</title><div id="root"></div>${'<script></script>'.repeat(40)}`;

let backend: TestBackend;
let dist: string;
let client: TestClient;
beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log("app")');
  precompressDir(dist);
  backend = await createTestBackend({ webDistDir: dist });
  client = (await verifiedUser(backend)).client;
});
afterAll(async () => {
  await backend.stop();
  rmSync(dist, { recursive: true, force: true });
});

const BROKEN = ['%', '%zz', '%E0%A4%A'];

describe('a page address with broken percent-encoding', () => {
  it.each([
    '/shared/%',
    '/%E0%A4%A',
    '/tools/%zz',
    '/text-to-pic%',
    '/tokens?checkout=%',
    '/reset-password?token=%E0%A4%A',
  ])('%s gets the shell with 404: the app shows its not-found screen', async (address) => {
    for (const response of [await backend.app.request(address), await client.fetchRaw(address)]) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(SHELL);
    }
  });

  it('gets the shell compressed, as a page does', async () => {
    const response = await backend.app.request('/shared/%', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(SHELL);
  });

  it('is told apart from a well-encoded one, which is still a page (%25 is a percent sign)', async () => {
    for (const address of ['/shared/abc', '/shared/100%25', '/tokens?checkout=%E2%9C%93']) {
      const response = await backend.app.request(address);
      expect([address, response.status]).toEqual([address, 200]);
    }
  });

  it('leaves files alone: a broken query on an asset still serves it, a broken path is a missing file', async () => {
    const asset = await backend.app.request('/assets/main-abc123.js?v=%');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log("app")');
    expect((await backend.app.request('/assets/main%zz.js')).status).toBe(404);
  });
});

describe('an API address with broken percent-encoding', () => {
  const addresses = [
    ...BROKEN.flatMap((b) => [`/api/jobs/${b}`, `/api/shared/${b}`, `/api/shared/${b}/files/0`, `/api/files/${b}`]),
    '/api/creations?cursor=%',
    '/api/jobs?before=%E0%A4%A',
    '/api/%',
    '/api/auth/get-session?x=%',
  ];

  it('is answered 400 before any route reads it, signed in or not', async () => {
    for (const address of addresses) {
      for (const response of [await backend.app.request(address), await client.fetchRaw(address)]) {
        expect([address, response.status]).toEqual([address, 400]);
        expect(await response.json()).toEqual({ error: BROKEN_URL_ENCODING_ERROR });
      }
    }
  });

  it('is answered 400 for other methods too', async () => {
    for (const [method, address] of [
      ['POST', '/api/creations/%/share'],
      ['DELETE', '/api/creations/%E0%A4%A'],
      ['POST', '/api/text-to-pic?x=%'],
    ] as const) {
      const response = await client.request(method, address, { body: {} });
      expect([address, response.status, response.body]).toEqual([address, 400, { error: BROKEN_URL_ENCODING_ERROR }]);
    }
  });

  it('is told apart from a well-encoded one', async () => {
    expect((await client.request('GET', '/api/jobs/100%25')).status).toBe(404);
    expect((await client.request('GET', '/api/creations?tool=%E2%9C%93')).status).toBe(400); // not a tool
    expect((await client.request('GET', '/api/creations')).status).toBe(200);
  });
});

describe('a session cookie with broken percent-encoding', () => {
  it('is no session: 401 and a signed-out session answer, not a 500', async () => {
    for (const cookie of BROKEN.map((b) => `pp.session_token=${b}`)) {
      const jobs = await backend.app.request('/api/jobs', { headers: { cookie } });
      expect([cookie, jobs.status]).toEqual([cookie, 401]);
      const session = await backend.app.request('/api/auth/get-session', { headers: { cookie } });
      expect([cookie, session.status]).toEqual([cookie, 200]);
      expect(await session.json()).toBeNull();
    }
  });
});
