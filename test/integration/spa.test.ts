// The server hands the built web app to the browser: files as they are, client routes as index.html.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { spaRoutes } from '../../src/server/pages/spa';
import { createTestBackend, type TestBackend } from '../support/test-backend';

/** Large and repetitive enough to be worth compressing, as a real vendor chunk is. */
const BIG_SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 40}`))};`;

describe('serving the web app', () => {
  let backend: TestBackend;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Picture Palette</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(dist, 'assets', 'vendor-def456.js'), BIG_SCRIPT);
    writeFileSync(path.join(dist, 'photo.png'), Buffer.alloc(4096));
    writeFileSync(path.join(dist, '.build-stamp'), 'sources 1795752820509');
    mkdirSync(path.join(dist, '.well-known'));
    writeFileSync(path.join(dist, '.well-known', 'security.txt'), 'Contact: mailto:security@example.com');
    precompressDir(dist);
    backend = await createTestBackend({ webDistDir: dist });
  });
  afterAll(async () => {
    await backend.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it("serves no dot-named file: /.build-stamp is the build's bookkeeping, not public (issue 36)", async () => {
    for (const hidden of ['/.build-stamp', '/.env', '/assets/.hidden', '/.git/config']) {
      const response = await backend.app.request(hidden);
      expect([hidden, response.status]).toEqual([hidden, 404]);
      expect(await response.text()).not.toContain('sources');
    }
    expect((await backend.app.request('/.well-known/security.txt')).status).toBe(200);
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

  it('sends a script brotli-compressed to a browser that accepts it', async () => {
    const response = await backend.app.request('/assets/vendor-def456.js', {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toContain('Accept-Encoding');
    expect(response.headers.get('content-type')).toContain('javascript');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(BIG_SCRIPT.length / 4);
    expect(brotliDecompressSync(body).toString()).toBe(BIG_SCRIPT);
  });

  it('sends gzip to a client without brotli and the plain file to one that accepts neither', async () => {
    const gzipped = await backend.app.request('/assets/vendor-def456.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(BIG_SCRIPT);
    const plain = await backend.app.request('/assets/vendor-def456.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    expect(await plain.text()).toBe(BIG_SCRIPT);
  });

  it('leaves images as they are', async () => {
    const response = await backend.app.request('/photo.png', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(4096);
  });

  it('answers a missing file outside /assets with 404, not with the page', async () => {
    for (const missing of ['/logo.png', '/wp-login.php', '/feed.xml']) {
      const response = await backend.app.request(missing);
      expect(response.status, missing).toBe(404);
      expect(await response.text()).not.toContain('<div id="root">');
    }
  });

  it('tells crawlers where the public pages are in robots.txt', async () => {
    const response = await backend.app.request('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('User-agent: *');
    expect(text).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });

  it('lists the public pages, not the signed-in ones, in sitemap.xml', async () => {
    const response = await backend.app.request('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/xml');
    const xml = await response.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toMatch(/<loc>http[^<]*\/<\/loc>/);
    expect(xml).toContain('/tokens</loc>');
    expect(xml).toContain('/background-remover</loc>');
    expect(xml).toContain('/developers</loc>');
    expect(xml).not.toContain('/user-settings');
  });
});

describe('serving prerendered pages (decision 021)', () => {
  let dist: string;
  let app: ReturnType<typeof spaRoutes>;
  const rendered: string[] = [];
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Picture Palette</title><body><div id="root"></div><script src="/a.js"></script>',
    );
    // A stand-in for the SSR build (scripts/prerender.ts): what it renders names its inputs.
    mkdirSync(`${dist}-ssr`);
    writeFileSync(
      path.join(`${dist}-ssr`, 'entry-prerender-abc123.js'),
      `export const PRERENDERED_PATHS = ['/', '/text-to-pic', '/broken'];
       export async function renderPage(path, { signedIn, tools }) {
         globalThis.__ppRendered?.push(path);
         if (path === '/broken') throw new Error('no window here');
         const html = '<main><h1>' + path + '</h1><p>' + signedIn + ' ' + tools.tools.map((t) => t.provider).join() + '</p>'.repeat(40) + '</main>';
         return { html, title: path === '/' ? 'Picture Palette' : 'Text to Pic & more · Picture Palette' };
       }`,
    );
    (globalThis as { __ppRendered?: string[] }).__ppRendered = rendered;
    app = spaRoutes(dist, 'http://127.0.0.1', {
      tools: () => ({ tools: [{ id: 'text-to-pic', provider: 'demo', demo: true, freePreview: true, price: 0 }] }),
      onRenderError: () => {},
    });
  });
  afterAll(() => {
    rmSync(dist, { recursive: true, force: true });
    rmSync(`${dist}-ssr`, { recursive: true, force: true });
  });

  it('answers a page with its HTML inside #root, carrying the hint and the tools it was rendered with', async () => {
    const response = await app.request('/text-to-pic');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    const html = await response.text();
    expect(html).toContain(
      '<div id="root" data-prerendered data-signed-in="false" data-tools="{&quot;tools&quot;:[{&quot;id&quot;:&quot;text-to-pic&quot;,&quot;provider&quot;:&quot;demo&quot;,&quot;demo&quot;:true,&quot;freePreview&quot;:true,&quot;price&quot;:0}]}"><main><h1>/text-to-pic</h1><p>false demo</p>',
    );
    expect(html).toContain('</main></div><script src="/a.js"></script>');
    // The page's own title, before any script runs (escaped like any text in the markup).
    expect(html).toContain('<title>Text to Pic &amp; more · Picture Palette</title>');
    expect(html).not.toContain('<title>Picture Palette</title>');
  });

  it('renders the signed-in variant for a request with a session cookie, each variant once', async () => {
    const cookie = { Cookie: 'theme=dark; pp.session_token=abc.def' };
    const first = await (await app.request('/', { headers: cookie })).text();
    expect(first).toContain('data-signed-in="true"');
    expect(first).toContain('<p>true demo</p>');
    await app.request('/', { headers: cookie });
    expect(rendered.filter((page) => page === '/').length).toBeLessThanOrEqual(2); // the warm-up's visitor and this one
  });

  it('sends the page brotli- or gzip-compressed', async () => {
    const plain = await (await app.request('/text-to-pic')).text();
    const br = await app.request('/text-to-pic', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const body = Buffer.from(await br.arrayBuffer());
    expect(body.length).toBeLessThan(plain.length / 2);
    expect(brotliDecompressSync(body).toString()).toBe(plain);
    const gzip = await app.request('/text-to-pic', { headers: { 'Accept-Encoding': 'gzip, br;q=0' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(plain);
  });

  it.each(['/text-to-pic?image=abc', '/tokens', '/no-such-page', '/broken'])(
    'answers %s with the shell (a query, no prerendered page, a page that failed)',
    async (route) => {
      const response = await app.request(route);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root"></div>');
    },
  );
});
