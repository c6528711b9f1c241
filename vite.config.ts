import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The single-page app lives in src/web and is built into dist/web, which the server serves at '/'.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Each route is its own lazy chunk; keep the warning meaningful for the landing route.
    chunkSizeWarningLimit: 300,
  },
  server: {
    // `npm run dev`: the API runs on PORT (3000) and Vite proxies /api to it.
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});
