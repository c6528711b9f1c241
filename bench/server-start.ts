// bench/server-start: what a server process costs to start, from the sources under tsx (as
// `npm run dev` runs it) against the server's build (as `npm start` runs it, decision 066), in one
// run on one machine. Each start is on a copy of the migrated seed database; the figures are the
// process's CPU seconds (user + system) when /api/health first answers, and again once it has warmed
// its prerendered pages, with the wall time to the first answer. Prints medians and the ratios.
//   npm run bench:start -- [--starts 5]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../e2e/support/server';
import { buildServerIfStale } from '../scripts/server-build.mjs';
import { buildWebIfStale } from '../scripts/web-build.mjs';
import { processCpuSeconds } from '../src/server/inference/local/cpu-time';
import { ensurePgliteSeed, seedDataDir } from '../test/support/pglite-seed';
import { arg } from './load/harness';

const ROOT = path.resolve(import.meta.dirname, '..');
const STARTS = arg('starts', 5);
/** How long after its first answer a start is counted again: the prerendered pages' warm-up. */
const WARM_UP_MS = 2000;

const WAYS = {
  'sources (tsx)': ['--import', 'tsx', 'src/server/main.ts'],
  'build (npm start)': ['scripts/start.mjs'],
} as const;

type Start = { readyCpu: number; warmCpu: number; readyMs: number };

async function startOnce(args: readonly string[]): Promise<Start> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-start-'));
  seedDataDir(dataDir);
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const readyMs = Date.now() - started;
    const readyCpu = processCpuSeconds(child.pid as number);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
    return { readyCpu, warmCpu: processCpuSeconds(child.pid as number), readyMs };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

await ensurePgliteSeed();
// The builds are made (when stale) before anything is measured: a start that builds measures the build.
if (!buildWebIfStale() || !(await buildServerIfStale())) throw new Error('the build failed');
const results: Record<string, Start[]> = Object.fromEntries(Object.keys(WAYS).map((way) => [way, []]));
// Alternated, so that a change in the machine's speed meets both ways alike.
for (let i = 0; i < STARTS; i++)
  for (const [way, args] of Object.entries(WAYS)) results[way]?.push(await startOnce(args));

console.log(`server start, median of ${STARTS} (CPU-s of the process; wall to the first answer)`);
const figures = Object.fromEntries(
  Object.entries(results).map(([way, starts]) => {
    const row = {
      ready: median(starts.map((s) => s.readyCpu)),
      warm: median(starts.map((s) => s.warmCpu)),
      ms: median(starts.map((s) => s.readyMs)),
    };
    console.log(
      `  ${way.padEnd(20)} ${row.ready.toFixed(2)} CPU-s to answer  ${row.warm.toFixed(2)} CPU-s warmed  ${row.ms} ms to answer`,
    );
    return [way, row];
  }),
);
const [sources, build] = [figures['sources (tsx)'], figures['build (npm start)']];
if (sources && build)
  console.log(
    `ratio build/sources: ${(build.ready / sources.ready).toFixed(2)}x CPU to answer, ${(build.warm / sources.warm).toFixed(2)}x warmed, ${(build.ms / sources.ms).toFixed(2)}x wall`,
  );
