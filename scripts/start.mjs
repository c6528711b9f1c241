#!/usr/bin/env node
// `npm start`: builds the web app (and its SSR build for prerendered pages, decision 021) when its
// sources changed since the last build, then runs the
// server in this process (TypeScript through tsx). Arguments pass through: --web, --worker.
// `npm run dev` (--dev): no build; Vite's dev server with hot reload on DEV_PORT (5173) in front,
// proxying the server's paths to it on PORT, and APP_URL set to Vite's address so that its pages
// pass the Origin checks and links in mails lead there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

ensureSupportedNode(fileURLToPath(import.meta.url));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'dist/web/.build-stamp');
const inputs = [
  'src/web',
  'src/contract',
  'vite.config.ts',
  'scripts/precompress.ts',
  'scripts/prerender.ts',
  'src/server/web/ssr-build.ts',
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

const args = process.argv.slice(2);
const dev = args.includes('--dev');
const servesWeb = args.includes('--web') || !args.includes('--worker');
if (dev) {
  const devPort = process.env.DEV_PORT ?? '5173';
  process.env.APP_URL ||= `http://localhost:${devPort}`;
  const vite = spawn(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), '--port', devPort, '--strictPort', '--host', 'localhost'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, PORT: process.env.PORT ?? '3000' } },
  );
  // One Ctrl-C (or the server exiting) ends both.
  process.on('exit', () => vite.kill());
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => vite.kill());
  console.log(
    `Development: open ${process.env.APP_URL} (Vite, hot reload); the API listens on port ${process.env.PORT ?? 3000}.`,
  );
} else if (servesWeb) {
  const sourcesTime = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
  const builtTime = existsSync(stampFile) ? Number(readFileSync(stampFile, 'utf8')) : 0;
  if (sourcesTime > builtTime) {
    console.log('Building the web app...');
    const vite = path.join(root, 'node_modules/vite/bin/vite.js');
    // Always React's production build: started from a test runner (NODE_ENV=test), Vite would bundle
    // the development build, and a later `npm start` would serve it as up to date.
    const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
    writeFileSync(stampFile, String(sourcesTime));
  }
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'src/server/main.ts'));
