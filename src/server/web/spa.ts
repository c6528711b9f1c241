// Serves the built single-page app (dist/web): hashed assets cached for a year, everything else
// that is not a file falls back to index.html so client-side routes load on refresh.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

/** Vite puts content-hashed files under /assets/: they never change, so browsers may keep them. */
const isHashedAsset = (requestPath: string) => requestPath.startsWith('/assets/');

export function spaRoutes(distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    if (c.res.status === 200) {
      c.res.headers.set(
        'Cache-Control',
        isHashedAsset(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    }
  });
  if (existsSync(distDir)) app.use('*', serveStatic({ root: distDir }));
  // A chunk from an older build must fail as a chunk (404), not load index.html as JavaScript.
  app.get('/assets/*', (c) => c.text('Not found', 404));
  app.get('*', (c) => {
    if (!existsSync(indexFile)) {
      return c.text('The web app is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    // Read per request: a rebuild while the server runs is picked up, and the file is small.
    return c.html(readFileSync(indexFile, 'utf8'));
  });
  return app;
}
