#!/usr/bin/env node
// `npm test`: lint, the licence check and the web app's production build, then every Vitest project
// beside the typecheck (web, unit, integration on PGlite and, with TEST_DATABASE_URL, on PostgreSQL,
// and the browser tests, which serve that build). Ends with each tier's time, then one total line over
// all of them: "N passed, N failed, N skipped". Extra arguments go to vitest (e.g. --project web).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSupportedNode } from './supported-node.mjs';

await ensureSupportedNode(fileURLToPath(import.meta.url));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const totals = { passed: 0, failed: 0, skipped: 0 };
const tierTimes = [];
const runStart = Date.now();

/** The machine's busy and total CPU time so far, summed over its cores (ms). */
function cpuTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { busy, total };
}
const cpuAtStart = cpuTimes();

/** Runs a step in its own process (output kept until it ends, as steps run side by side). */
function step(name, args) {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const ok = code === 0;
      totals[ok ? 'passed' : 'failed'] += 1;
      tierTimes.push({ tier: name, wallMs: Date.now() - start });
      console.log(`\n> ${name}\n${output}${ok ? `${name}: passed` : `${name}: FAILED`}`);
      resolve(ok);
    });
  });
}

console.log(`Node.js ${process.version} (${process.execPath})`);
const vitestArgs = process.argv.slice(2);
// The typecheck runs beside the tests: they wait only for the lint and the build (the web app's build
// is the one every browser test's server serves and build-output.test.ts weighs; the server's build
// is the one every server process of the tests runs).
let typecheck = Promise.resolve();
let licenses = Promise.resolve();
let imports = Promise.resolve();
if (vitestArgs.length === 0) {
  const build = path.join(root, 'scripts/build.mjs');
  typecheck = step('typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
  // Every runtime dependency's licence against docs/models.md (decision 070), beside lint: its count
  // and any package refused (`npm run licenses` prints the whole table).
  licenses = step('licenses', [path.join(root, 'scripts/licenses.mjs'), '--summary']);
  // The server's imports against docs/architecture.md's "may import" table, with no folder loop (decision 076).
  imports = step('imports', [path.join(root, 'scripts/check-imports.mjs')]);
  await step('lint', [bin('@biomejs/biome', 'bin/biome'), 'ci', '.']).then(() => step('build', [build]));
}

// The browser tests run one file at a time (one server and one browser each); Vitest runs such a
// project only after all the others, so it runs in a Vitest of its own beside the rest instead.
const otherProjects = ['web', 'unit', 'unit-isolated', 'integration-pglite', 'integration-isolated'];
if (process.env.TEST_DATABASE_URL) otherProjects.push('integration-postgres');
// Side by side, the two fill both cores (95% busy over a quiet run; one file at a time left a core
// idle through every integration file: decision 054). ONE_VITEST=1 runs every project in one Vitest, one file at a time.
const runs =
  vitestArgs.length > 0 || process.env.ONE_VITEST === '1'
    ? [{ name: 'vitest', args: vitestArgs }]
    : [
        // The server-process tests (no browser) after the browser tests: the two Vitests then take about
        // as long (vitest.config.ts, decision 066).
        { name: 'browser', args: ['--project', 'e2e', '--project', 'e2e-processes'] },
        { name: 'others', args: otherProjects.flatMap((project) => ['--project', project]) },
      ];
mkdirSync(path.join(root, '.tmp'), { recursive: true });
const timesFiles = [];

function runVitest({ name, args }) {
  const report = path.join(root, `.tmp/vitest-report-${name}.json`);
  const timesFile = path.join(root, `.tmp/test-times-${name}.json`);
  rmSync(report, { force: true });
  rmSync(timesFile, { force: true });
  timesFiles.push(timesFile);
  console.log(`\n> vitest (${name})`);
  const child = spawn(
    process.execPath,
    [
      bin('vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/test-times-reporter.ts',
      `--outputFile.json=${report}`,
      ...args,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_TIMES_FILE: timesFile } },
  );
  return new Promise((resolve) => {
    child.on('close', (code) => {
      let failed = 0;
      if (existsSync(report)) {
        const results = JSON.parse(readFileSync(report, 'utf8'));
        totals.passed += results.numPassedTests;
        failed += results.numFailedTests;
        totals.skipped += results.numPendingTests + results.numTodoTests;
        // A file that failed to load (or a failing setup) has no test results: count it as a failure.
        failed += results.testResults.filter(
          (file) => file.status === 'failed' && file.assertionResults.length === 0,
        ).length;
      }
      if (code !== 0 && failed === 0) failed = 1;
      totals.failed += failed;
      resolve();
    });
  });
}
await Promise.all([...runs.map(runVitest), typecheck, licenses, imports]);

// Where the time went: each tier's wall time (Vitest's projects overlap: they share the cores).
const seconds = (ms) => `${(ms / 1000).toFixed(0).padStart(5)} s`;
console.log('\nTier times:');
for (const { tier, wallMs } of tierTimes) console.log(`  ${tier.padEnd(22)} ${seconds(wallMs)}`);
for (const tier of timesFiles.filter(existsSync).flatMap((file) => JSON.parse(readFileSync(file, 'utf8')))) {
  const slowest = tier.slowest.map((f) => `${path.basename(f.file)} ${(f.ms / 1000).toFixed(0)} s`).join(', ');
  console.log(`  ${tier.project.padEnd(22)} ${seconds(tier.wallMs)}  ${tier.files} files; slowest: ${slowest}`);
}
// How full the cores were: what running more at once could still gain (the whole machine's, others' work too).
const cpuAtEnd = cpuTimes();
const busyShare = (cpuAtEnd.busy - cpuAtStart.busy) / Math.max(1, cpuAtEnd.total - cpuAtStart.total);
console.log(
  `  ${'whole run'.padEnd(22)} ${seconds(Date.now() - runStart)}  CPU busy ${(busyShare * 100).toFixed(0)}% of ${os.cpus().length} cores`,
);

const line = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
console.log(`\n${line}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
