// The production build of the web app (and its SSR build for prerendered pages, decision 021) in
// dist/web, made only when its sources changed since the last one. `npm start` and `npm test` both
// call it, so a test run builds once and every server it starts serves that build.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtTime, newestMtime } from './sources-time.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST_DIR = path.join(root, 'dist/web');
const stampFile = path.join(WEB_DIST_DIR, '.build-stamp');
const inputs = [
  'src/web',
  'src/contract',
  'vite.config.ts',
  'scripts/precompress.ts',
  'scripts/prerender.ts',
  'src/server/pages/ssr-build.ts',
  'package-lock.json',
];

/** Builds dist/web when a source is newer than the last build; true when it is up to date after. */
export function buildWebIfStale() {
  const sourcesTime = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
  if (sourcesTime <= builtTime(stampFile)) return true;
  console.log('Building the web app...');
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  // Always React's production build: started from a test runner (NODE_ENV=test), Vite would bundle
  // the development build, and a later `npm start` would serve it as up to date.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) return false;
  writeFileSync(stampFile, String(sourcesTime));
  return true;
}
