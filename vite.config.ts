import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress';
import { prerender } from './scripts/prerender';

// The single-page app lives in src/web and is built into dist/web, which the server serves at '/'.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), precompress(), prerender()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // .vite/manifest.json: what scripts/build-output.test.ts weighs (dot paths are never served).
    manifest: true,
    // Each route is its own lazy chunk. React goes in a vendor chunk of its own: it changes less
    // often than our code, so browsers keep it across our releases.
    // The framework chunk is ~190 kB (60 kB gzipped); warn when anything grows far beyond it.
    chunkSizeWarningLimit: 350,
    // One stylesheet for every page (about 12 kB compressed): a prerendered page paints with all of
    // its styles before any script runs (decision 021), not when its route's chunk brings them.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // Everything else the entry imports is one chunk, the entry's own. Without this group what
            // it shares with the lazy pages (the router, the tool list, Rolldown's runtime) came as
            // chunks of their own, each costing every page a request, gzip framing and imports (about
            // 0.7 kB gzipped a page; the landing page's budget: scripts/build-output.test.ts).
            { name: 'app', tags: ['$initial'] },
            // The prices a page states: lib/tool-prices.ts reads lib/tools-info.ts, which the routes
            // also fetch ahead of a priced page; one chunk, not two. These files only: what they import
            // (the router, the API client) stays in the entry's chunk, which imports them dynamically.
            {
              name: 'tool-prices',
              test: /src[\\/]web[\\/]lib[\\/](tool-prices|tools-info)\.ts$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev`: the server runs on PORT (3000) and Vite proxies to it everything the server
    // answers itself: the API, the development outbox and the local test checkout.
    proxy: Object.fromEntries(
      ['/api', '/dev/mail', '/checkout/local'].map((prefix) => [
        prefix,
        `http://127.0.0.1:${process.env.PORT ?? 3000}`,
      ]),
    ),
  },
});
