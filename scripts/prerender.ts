// A Vite plugin: after the browser build, Vite's SSR build turns src/web/entry-prerender.tsx into
// `<outDir>-ssr/entry-prerender-<hash>.js` (dist/web-ssr, outside what the server serves as files), which the
// server runs to prerender each page (decision 021, src/server/pages/prerendered-pages.ts). Each page is
// rendered once here as well, so a page that cannot render outside a browser fails the build, not
// the server's start.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { ssrDirOf, ssrEntryOf } from '../src/server/pages/ssr-build';

type Entry = typeof import('../src/web/entry-prerender');

export function prerender(): Plugin {
  let root = '';
  let outDir = '';
  let mode = 'production';
  return {
    name: 'picture-palette:prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const ssrDir = ssrDirOf(outDir);
        // JSX compiles for the React build the bundle defines: NODE_ENV decides it, and a build
        // started from a test (NODE_ENV=test) would otherwise mix React's development JSX with its
        // production build.
        const nodeEnv = process.env.NODE_ENV;
        process.env.NODE_ENV = mode === 'production' ? 'production' : 'development';
        await build({
          configFile: false,
          root,
          mode,
          logLevel: 'warn',
          plugins: [react()],
          // Self-contained (React included, in its production build): it runs wherever it is built.
          ssr: { noExternal: true },
          define: { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV) },
          build: {
            ssr: 'entry-prerender.tsx',
            outDir: ssrDir,
            emptyOutDir: true,
            copyPublicDir: false,
            rolldownOptions: { output: { entryFileNames: 'entry-prerender-[hash].js' } },
          },
        }).finally(() => {
          process.env.NODE_ENV = nodeEnv;
        });
        const file = ssrEntryOf(ssrDir);
        if (!file) throw new Error(`prerender: no entry in ${ssrDir}`);
        const entry = (await import(pathToFileURL(file).href)) as Entry;
        for (const page of entry.PRERENDERED_PATHS) {
          const rendered = await entry.renderPage(page, { signedIn: false, tools: { tools: [] } });
          if (!rendered) throw new Error(`prerender: ${page} rendered nothing`);
        }
      },
    },
  };
}
