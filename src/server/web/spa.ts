// Serves the built single-page app (dist/web): hashed assets cached for a year, everything else
// that is not a file falls back to index.html so client-side routes load on refresh.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

export function spaRoutes(distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  const app = new Hono();
  if (existsSync(distDir)) {
    app.use(
      '*',
      serveStatic({
        root: distDir,
        onFound: (filePath, c) => {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          c.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      }),
    );
  }
  app.get('*', (c) => {
    if (!existsSync(indexFile)) {
      return c.text('The web app is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    // Read per request: a rebuild while the server runs is picked up, and the file is small.
    return c.html(readFileSync(indexFile, 'utf8'));
  });
  return app;
}
