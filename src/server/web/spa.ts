// Serves the built single-page app (dist/web): hashed assets cached for a year, everything else
// that is not a file falls back to index.html so client-side routes load on refresh. Text files
// travel compressed: the build writes a .br and a .gz beside each (scripts/precompress.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { robotsTxt, sitemapXml } from './crawlers';

/** Vite puts content-hashed files under /assets/: they never change, so browsers may keep them. */
const isHashedAsset = (requestPath: string) => requestPath.startsWith('/assets/');

/** `/logo.png`, `/assets/x.js`, `/wp-login.php`: a file was asked for, never a client route. */
const looksLikeFile = (requestPath: string) => /\.[a-z0-9]+$/i.test(requestPath);

export function spaRoutes(distDir: string, appUrl: string) {
  const indexFile = path.join(distDir, 'index.html');
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
  // Read per request: a rebuild while the server runs is picked up.
  app.get('*', serveStatic({ root: distDir, path: 'index.html', precompressed: true }));
  return app;
}
