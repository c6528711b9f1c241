// The server hands the built web app to the browser: files as they are, client routes as index.html.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBackend, type TestBackend } from '../support/test-backend';

describe('serving the web app', () => {
  let backend: TestBackend;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Picture Palette</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    backend = await createTestBackend({ webDistDir: dist });
  });
  afterAll(async () => {
    await backend.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/', '/text-to-pic', '/user-settings', '/no-such-page'])('answers %s with index.html', async (route) => {
    const response = await backend.app.request(route);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache and their own type', async () => {
    const response = await backend.app.request('/assets/main-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe('console.log("app")');
  });

  it('serves other files without a long cache', async () => {
    const response = await backend.app.request('/favicon.svg');
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset with 404, not with the page', async () => {
    const response = await backend.app.request('/assets/main-old999.js');
    expect(response.status).toBe(404);
  });

  it('does not leave the web folder', async () => {
    const response = await backend.app.request('/..%2f..%2fpackage.json');
    expect(await response.text()).not.toContain('"name"');
  });
});
