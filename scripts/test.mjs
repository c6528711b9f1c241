#!/usr/bin/env node
// `npm test`: typecheck, lint, then every Vitest project (web, unit, integration on PGlite and,
// with TEST_DATABASE_URL, on PostgreSQL, and the browser tests). Ends with one total line over
// all of them: "N passed, N failed, N skipped". Extra arguments go to vitest (e.g. --project web).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

ensureSupportedNode(fileURLToPath(import.meta.url));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };

function step(name, args) {
  console.log(`\n> ${name}`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const ok = result.status === 0;
  totals[ok ? 'passed' : 'failed'] += 1;
  console.log(ok ? `${name}: passed` : `${name}: FAILED`);
  return ok;
}

console.log(`Node.js ${process.version} (${process.execPath})`);
const vitestArgs = process.argv.slice(2);
if (vitestArgs.length === 0) {
  step('typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
  step('lint', [bin('@biomejs/biome', 'bin/biome'), 'ci', '.']);
}

const report = path.join(root, '.tmp/vitest-report.json');
mkdirSync(path.dirname(report), { recursive: true });
rmSync(report, { force: true });
console.log('\n> vitest');
const vitest = spawnSync(
  process.execPath,
  [
    bin('vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...vitestArgs,
  ],
  { cwd: root, stdio: 'inherit' },
);
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += results.numPassedTests;
  totals.failed += results.numFailedTests;
  totals.skipped += results.numPendingTests + results.numTodoTests;
  // A file that failed to load (or a failing setup) has no test results: count it as a failure.
  const brokenFiles = results.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  );
  totals.failed += brokenFiles.length;
}
if (vitest.status !== 0 && totals.failed === 0) totals.failed += 1;

const line = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
console.log(`\n${line}`);
process.exit(totals.failed > 0 ? 1 : 0);
