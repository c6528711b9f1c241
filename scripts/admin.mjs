#!/usr/bin/env node
// `npm run admin -- <command>`: support's tool (src/server/admin/cli.ts), from the server's build
// (server-build.mjs), which it makes first when the sources changed.
import { fileURLToPath } from 'node:url';
import { buildServerIfStale, serverEntry } from './server-build.mjs';
import { ensureSupportedNode } from './supported-node.mjs';

await ensureSupportedNode(fileURLToPath(import.meta.url));

if (!(await buildServerIfStale())) process.exitCode = 1;
else {
  process.setSourceMapsEnabled(true);
  await import(serverEntry('admin'));
}
