#!/usr/bin/env node
// Builds dist/web when its sources changed (what `npm start` does first); exit code 1 on failure.
import { buildWebIfStale } from './web-build.mjs';

process.exitCode = buildWebIfStale() ? 0 : 1;
