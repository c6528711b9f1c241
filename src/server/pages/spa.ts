// Serves the built single-page app (dist/web): hashed assets cached for a year, the app's pages
// prerendered (prerendered-pages.ts, decision 021), and everything else that is not a file falls back
// to index.html so client-side routes load on refresh. Text files travel compressed: the build writes
// a .br and a .gz beside each (scripts/precompress.ts); a prerendered page keeps its own twins.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { SHARED_ROUTE_PREFIX } from '../../contract/creations';
import type { ToolsInfo } from '../../contract/tool-responses';
import { escapeMarkup } from '../markup/escape-markup';
import { hasBrokenUrlEncoding } from '../security/url-encoding';
import { robotsTxt, sitemapXml } from './crawlers';
import { hasSessionCookie, prerenderedPages } from './prerendered-pages';

/** Vite puts content-hashed files under /assets/: they never change, so browsers may keep them. */
const isHashedAsset = (requestPath: string) => requestPath.startsWith('/assets/');

/**
 * A dot-named file or folder (`/.build-stamp`, `/.env`, `/.git/config`): the build's own bookkeeping
 * (start.mjs's stamp), never the app's, so never served (issue 36); /.well-known/ excepted.
 */
const isHiddenPath = (requestPath: string) => /\/\.(?!well-known\/)/.test(requestPath);

/** `/logo.png`, `/assets/x.js`, `/wp-login.php`: a file was asked for, never a client route. */
const looksLikeFile = (requestPath: string) => /\.[a-z0-9]+$/i.test(requestPath);

/** Brotli, then gzip, when the request accepts it (a `;q=0` refusal is honoured). */
function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = (name: string) =>
    (acceptEncoding ?? '').split(',').some((part) => {
      const [coding, ...params] = part.trim().split(';');
      return coding?.trim() === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    });
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return null;
}

export type SpaOptions = {
  /** What GET /api/tools answers: a prerendered tool page shows its engine's notice. */
  tools?: () => ToolsInfo;
  onRenderError?: (error: unknown, page: string) => void;
  /**
   * The head of a shared creation's page, read per request (creations/shared-creation.ts): its
   * link-preview tags, which crawlers read from this first answer since they run no scripts.
   */
  sharedHead?: (token: string) => Promise<{ title: string | null; head: string }>;
};

const TITLE_ELEMENT = /<title>[^<]*<\/title>/;

export function spaRoutes(distDir: string, appUrl: string, options: SpaOptions = {}) {
  const indexFile = path.join(distDir, 'index.html');
  const prerendered = prerenderedPages({
    distDir,
    tools: options.tools ?? (() => ({ tools: [] })),
    onError: options.onRenderError ?? (() => {}),
  });
  // Ahead of the first visitors, off the start's path.
  setImmediate(() => void prerendered.warm());
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    if (c.res.status === 200) {
      c.res.headers.set(
        'Cache-Control',
        isHashedAsset(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // The same URL answers differently by Accept-Encoding: caches must keep them apart.
      if (!c.res.headers.get('Vary')?.includes('Accept-Encoding')) c.res.headers.append('Vary', 'Accept-Encoding');
    }
  });
  app.get('/robots.txt', (c) => c.text(robotsTxt(appUrl)));
  app.get('/sitemap.xml', (c) => c.body(sitemapXml(appUrl), 200, { 'Content-Type': 'text/xml; charset=utf-8' }));
  // A shared creation: the shell with the creation's own head (or, for a dead link, none of its tags).
  const { sharedHead } = options;
  if (sharedHead) {
    app.get(`${SHARED_ROUTE_PREFIX}:token`, async (c, next) => {
      if (hasBrokenUrlEncoding(c.req.url) || !existsSync(indexFile)) return next();
      const { title, head } = await sharedHead(c.req.param('token'));
      const shell = readFileSync(indexFile, 'utf8');
      const withTitle = title ? shell.replace(TITLE_ELEMENT, () => `<title>${escapeMarkup(title)}</title>`) : shell;
      return c.html(withTitle.replace('</head>', () => `${head}\n</head>`));
    });
  }
  // A page's path without a query (a query can change what the page first shows: it gets the shell).
  app.get('*', async (c, next) => {
    if (new URL(c.req.url).search) return next();
    const page = await prerendered.pageFor(c.req.path, hasSessionCookie(c.req.header('Cookie')));
    if (!page) return next();
    const encoding = encodingFor(c.req.header('Accept-Encoding'));
    const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.html;
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      // The page differs for a request with a session cookie (the room of the signed-in state).
      Vary: 'Accept-Encoding, Cookie',
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    return c.body(new Uint8Array(body), 200, headers);
  });
  app.get('*', (c, next) => (isHiddenPath(c.req.path) ? c.text('Not found', 404) : next()));
  if (existsSync(distDir)) app.use('*', serveStatic({ root: distDir, precompressed: true }));
  // A missing file (a chunk from an older build, a guessed path) fails as a file (404), not as the
  // page: loaded as JavaScript, an image or a feed, the shell would only break more.
  app.get('*', (c, next) => (looksLikeFile(c.req.path) ? c.text('Not found', 404) : next()));
  app.get('*', (c, next) => {
    if (!existsSync(indexFile)) {
      return c.text('The web app is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    return next();
  });
  // A path or query with broken percent-encoding (`/shared/%`, `/tokens?checkout=%E0%A4%A`) names no
  // page: the shell answers it with 404, and the app's router shows its not-found screen (issue 37).
  app.get('*', async (c, next) => {
    await next();
    if (c.res.status === 200 && hasBrokenUrlEncoding(c.req.url)) {
      const headers = new Headers(c.res.headers);
      headers.set('Cache-Control', 'no-cache');
      c.res = new Response(c.res.body, { status: 404, headers });
    }
  });
  // Read per request: a rebuild while the server runs is picked up.
  app.get('*', serveStatic({ root: distDir, path: 'index.html', precompressed: true }));
  return app;
}
