// The benches are how issue-level figures are measured; nothing else runs them, and one broke
// unseen for a day (queue-depth, after the charge's send gained a column). Each runs here briefly,
// on PGlite, and must finish and print its figures; the statement counts that docs/performance.md
// states are held here too. Briefly means bounded by counts (requests, images, depths), so that a
// slow machine only takes longer. What the benches can share, they share: the in-process ones run
// in one process (bench/in-one-process.ts), the two that call tools on a real server share one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../e2e/support/server';
import { buildPgliteTemplate } from '../test/support/template-db';
import { BENCH_HEADER } from './in-one-process';
import { SHARED_SERVER, startLocalEngineServer } from './server-client';

const root = path.resolve(import.meta.dirname, '..');
/** A run's time limit: it only catches a hang (the whole file took minutes at a load of 15). */
const HANG = 600_000;

// The benches measure on a copy of the suite's migrated template (bench-database.ts), not on a new
// database each: initdb and migrations are seconds per bench that measure nothing.
let migratedDump = '';
beforeAll(async () => {
  migratedDump = await buildPgliteTemplate();
}, HANG);

/**
 * Runs a bench script to its end; its output, or a failure with what it printed. Not spawnSync: this
 * thread keeps reading the shared server's output meanwhile (a full pipe would stop the server).
 */
async function runBench(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const environment: NodeJS.ProcessEnv = { ...process.env, BENCH_PGLITE_DUMP: migratedDump, ...env };
  delete environment.TEST_DATABASE_URL; // PGlite only: the benches' PostgreSQL runs are for people, not CI
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', script), ...args], {
    cwd: root,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: HANG,
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (status !== 0) throw new Error(`${script} exited with ${status}:\n${stdout}${stderr}`);
  return stdout;
}

// The in-process benches, one after another in one process: Node, tsx and the server's modules are
// paid once (3 CPU-s), not five times. Each test reads its bench's part of the output.
const IN_ONE_PROCESS = {
  statements: 'statements.ts --list', // the statements themselves, should a count differ
  queueDepth: 'queue-depth.ts --seconds 0.3 --depths 0,20',
  userHistory: 'user-history.ts --sizes 0,50 --calls 3 --warm-up 2',
  toolOverhead: 'tool-overhead.ts --requests 20 --concurrency 2',
  conversionStorm: 'conversion-storm.ts --results 1 --megapixels 0.5 --reads 3',
};
let inOneProcess: Promise<string> | undefined;

/** The output of one of IN_ONE_PROCESS's benches (all of them run at the first ask). */
async function outputOf(bench: keyof typeof IN_ONE_PROCESS): Promise<string> {
  inOneProcess ??= runBench('in-one-process.ts', Object.values(IN_ONE_PROCESS));
  const script = IN_ONE_PROCESS[bench].split(' ')[0] as string;
  const parts = (await inOneProcess).split(BENCH_HEADER);
  const part = parts.find((text) => text.startsWith(`${script}\n`));
  if (part === undefined) throw new Error(`no output of ${script}:\n${parts.join(BENCH_HEADER)}`);
  return part;
}

describe('the benches', { timeout: HANG }, () => {
  it('count the statements per request that docs/performance.md states', async () => {
    const output = await outputOf('statements');
    const countOf = (request: string) =>
      Number(output.match(new RegExp(`${request.replace(/[()/]/g, '\\$&')}\\s+(\\d+) statements`))?.[1]);
    expect(countOf('GET /api/health'), output).toBe(1);
    expect(countOf('GET /api/profile (signed in)'), output).toBe(2);
    expect(countOf('POST /api/generate-image (instant)'), output).toBe(3);
    expect(countOf('GET /api/profile (API key)'), output).toBe(2);
    expect(countOf('POST /api/generate-image (API key)'), output).toBe(3);
  });

  it('measure the queue in the jobs table at depth', async () => {
    const output = await outputOf('queueDepth');
    for (const depth of [0, 20])
      expect(output, `depth ${depth}`).toMatch(new RegExp(`PGlite\\s+jobs table\\s+depth\\s+${depth}\\s+\\d+ ops/s`));
    // A waiting page's read of its place, behind the whole backlog.
    expect(output).toMatch(/PGlite\s+position\s+depth\s+20\s+[\d.]+ ms a read of the last job's place \(21\)/);
  });

  it("measure a user's next requests against the length of their history", async () => {
    const output = await outputOf('userHistory');
    for (const size of [0, 50])
      for (const request of [
        'POST /api/generate-image',
        'GET /api/creations',
        'GET /api/creations/usage',
        'GET /api/creations by tool',
      ])
        expect(output, `${request} at ${size}`).toMatch(
          new RegExp(`history\\s+${size} jobs\\s+${request}\\s+PGlite\\s+[\\d.]+ ms a request\\s+x[\\d.]+`),
        );
  });

  it('measure a tool call against a health request, and split the thread time of each', async () => {
    const output = await outputOf('toolOverhead');
    for (const endpoint of ['GET /api/health', 'POST /api/generate-image'])
      expect(output, endpoint).toMatch(
        new RegExp(`${endpoint}\\s+[\\d.]+ req/s .* errors 0\\n\\s+thread [\\d.]+ ms a request: PGlite [\\d.]+ ms`),
      );
    // A statement's time is counted for both (which is larger is a measurement, not a check: a busy
    // machine has inverted it).
    const counted = [...output.matchAll(/PGlite ([\d.]+) ms/g)].map((match) => Number(match[1]));
    expect(counted.slice(0, 2).every((ms) => ms > 0)).toBe(true);
    expect(output).toMatch(/ratio tool\/health: throughput [\d.]+x, p50 [\d.]+x/);
    expect(output).toMatch(/floor \(.*\) [\d.]+x/);
    // And by statement: the tool call's three, each about once a call, named by their SQL (the
    // server's background looks, on a clock, are not counted: a slow run meets more of them).
    const byStatement = output.slice(output.indexOf('PGlite per tool call, by statement:'));
    for (const statement of ['with sess as', 'with queue_counts as', 'with done as'])
      expect(byStatement, statement).toMatch(
        new RegExp(`^ {2}[\\d.]+ ms {2}(0\\.9\\d|1\\.0\\d) runs {2}${statement}`, 'm'),
      );
  });

  it("measure another user's file reads while one account converts results", async () => {
    const output = await outputOf('conversionStorm');
    for (const phase of ['no storm', 'during storm'])
      expect(output, phase).toMatch(
        new RegExp(`${phase}\\s+reads\\s+\\d+\\s+median\\s+[\\d.]+ ms\\s+max\\s+[\\d.]+ ms`),
      );
    expect(output).toMatch(/ratio storm\/quiet: median [\d.]+x, max [\d.]+x/);
    expect(output).toMatch(/storm: 2 conversions in [\d.]+ s, answered 200 x2/);
  });

  it('measure a server start from the sources against one from the build', async () => {
    const output = await runBench('server-start.ts', ['--starts', '1']);
    for (const way of ['sources \\(tsx\\)', 'build \\(npm start\\)'])
      expect(output, way).toMatch(
        new RegExp(`${way}\\s+[\\d.]+ CPU-s to answer\\s+[\\d.]+ CPU-s warmed\\s+\\d+ ms to answer`),
      );
    expect(output).toMatch(/ratio build\/sources: [\d.]+x CPU to answer, [\d.]+x warmed, [\d.]+x wall/);
  });

  it('measure the colour error at a cut-out’s edge before and after clean edges', async () => {
    // Small subjects, one timed run: the table's six backgrounds and a contact sheet still come out.
    const sheet = path.join(mkdtempSync(path.join(os.tmpdir(), 'pp-edges-')), 'edges.png');
    const output = await runBench('edges.ts', ['--side', '160', '--runs', '1', '--sheet', sheet]);
    for (const background of ['red', 'green', 'blue', 'white', 'black', 'photo'])
      expect(output, background).toMatch(
        new RegExp(`^${background}\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+x(\\s+[\\d.]+){3}$`, 'm'),
      );
    expect(output).toContain(`contact sheet: ${sheet}`);
    rmSync(path.dirname(sheet), { recursive: true, force: true });
  });

  describe('on one real server (the local engine), shared', () => {
    // Both benches sign their own user up on it (a new account's 20 tokens pay their brief runs): one
    // server start, one engine process and one load of the upscaler's models instead of two.
    let shared: ServerProcess;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-benches-'));
      shared = await startLocalEngineServer(dataDir);
    }, HANG);
    afterAll(async () => {
      await shared?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const onShared = (script: string, args: string[]) => runBench(script, args, { [SHARED_SERVER]: shared.url });

    it('measure a batch through the local engine against single calls', async () => {
      const output = await onShared('batch.ts', ['--images', '2']); // exits 1 should an image fail
      expect(output).toMatch(/single calls\s+2 images\s+[\d.]+ s\s+\d+ images\/min\s+[\d.]+ s an image/);
      expect(output).toMatch(/batch\s+2 images\s+[\d.]+ s\s+\d+ images\/min\s+[\d.]+ s an image \(sending [\d.]+ s\)/);
      expect(output).toMatch(/batch overhead per image: [+-][\d.]+% \(want under \+10%\)/);
    });

    it('measure the colours a photo tagged Display P3 or Adobe RGB comes back with', async () => {
      // One tool, the three taggings on 128 px photos (each patch still a square of pixels to read):
      // three calls.
      const output = await onShared('colour.ts', ['--tools', 'image-upscaler', '--side', '128']); // exits 1 should a call fail
      for (const tagging of ['P3', 'Adobe RGB', 'sRGB'])
        expect(output, tagging).toMatch(
          new RegExp(
            `^image-upscaler\\s+${tagging}\\s+local\\s+\\w+ \\d+x\\d+\\s+.+?\\s+[\\d.]+\\s+[\\d.]+ \\([\\w ]+\\)\\s+[\\d.]+\\s+[\\d.]+ \\([\\w ]+\\)\\s+12/12\\s+[\\d.]+ s$`,
            'm',
          ),
        );
      expect(output).toMatch(
        /a lost profile would read \(mean \/ max\): P3 [\d.]+ \/ [\d.]+ .*Adobe RGB [\d.]+ \/ [\d.]+/,
      );
      expect(output).toMatch(
        /^ {2}image-upscaler\s+(ok {2}|FAIL)\s+P3 [\d.]+ \/ [\d.]+.*, Adobe RGB [\d.]+ \/ [\d.]+/m,
      );
    });
  });
});
