#!/usr/bin/env node
// `npm start`: builds the web app and the server when their sources changed since the last build
// (web-build.mjs, server-build.mjs), then runs the server's build in this process. Arguments pass
// through: --web, --worker.
// `npm run dev` (--dev): no build; the server's sources through tsx, and Vite's dev server with hot
// reload on DEV_PORT (5173) in front, proxying the server's paths to it on PORT, and APP_URL set to
// Vite's address so that its pages pass the Origin checks and links in mails lead there.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, serverEntry } from './server-build.mjs';
import { ensureSupportedNode } from './supported-node.mjs';
import { buildWebIfStale } from './web-build.mjs';

await ensureSupportedNode(fileURLToPath(import.meta.url));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
}

// A failed build has printed its errors: the server does not start on an old or partial build.
if (dev) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(path.join(root, 'src/server/main.ts'));
} else if ((servesWeb && !buildWebIfStale()) || !(await buildServerIfStale())) {
  process.exitCode = 1;
} else {
  // Stack traces in the log name the sources, not the bundle's lines.
  process.setSourceMapsEnabled(true);
  await import(serverEntry('main'));
}
