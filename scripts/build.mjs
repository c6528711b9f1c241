#!/usr/bin/env node
// Builds dist/web and dist/server when their sources changed (what `npm start` does first); exit code
// 1 on failure.
import { buildServerIfStale } from './server-build.mjs';
import { buildWebIfStale } from './web-build.mjs';

process.exitCode = buildWebIfStale() && (await buildServerIfStale()) ? 0 : 1;
