// The production build of the web app (and its SSR build for prerendered pages, decision 021) in
// dist/web, made only when its sources changed since the last one. `npm start` and `npm test` both
// call it, so a test run builds once and every server it starts serves that build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Builds dist/web when a source is newer than the last build; true when it is up to date after. */
export function buildWebIfStale() {
  const sourcesTime = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
  const builtTime = existsSync(stampFile) ? Number(readFileSync(stampFile, 'utf8')) : 0;
  if (sourcesTime <= builtTime) return true;
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
