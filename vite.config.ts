import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress';

// The single-page app lives in src/web and is built into dist/web, which the server serves at '/'.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Each route is its own lazy chunk. React and the router go in a vendor chunk of their own:
    // they change less often than our code, so browsers keep them across our releases.
    // The framework chunk is ~312 kB (99 kB gzipped); warn when anything grows beyond it.
    chunkSizeWarningLimit: 350,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor-react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
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
