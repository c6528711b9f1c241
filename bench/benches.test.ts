// The benches are how issue-level figures are measured; nothing else runs them, and one broke
// unseen for a day (queue-depth, after the charge's send gained a column). Each runs here briefly,
// on PGlite, and must finish and print its figures; the statement counts that docs/performance.md
// states are held here too.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPgliteTemplate } from '../test/support/template-db';

const root = path.resolve(import.meta.dirname, '..');

// The benches measure on a copy of the suite's migrated template (bench-database.ts), not on a new
// database each: initdb and migrations are seconds per bench that measure nothing.
let migratedDump = '';
beforeAll(async () => {
  migratedDump = await buildPgliteTemplate();
}, 180_000);

/** Runs a bench script to its end; its output, or a failure with what it printed. */
function runBench(script: string, args: string[] = [], timeout = 120_000): string {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_PGLITE_DUMP: migratedDump };
  delete env.TEST_DATABASE_URL; // PGlite only: the benches' PostgreSQL runs are for people, not CI
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', script), ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${script} exited with ${result.status}:\n${output}`);
  return result.stdout;
}

describe('the benches', () => {
  it('count the statements per request that docs/performance.md states', () => {
    const output = runBench('statements.ts', ['--list']); // the statements themselves, should a count differ
    const countOf = (request: string) =>
      Number(output.match(new RegExp(`${request.replace(/[()/]/g, '\\$&')}\\s+(\\d+) statements`))?.[1]);
    expect(countOf('GET /api/health'), output).toBe(1);
    expect(countOf('GET /api/profile (signed in)'), output).toBe(2);
    expect(countOf('POST /api/generate-image (instant)'), output).toBe(3);
    expect(countOf('GET /api/profile (API key)'), output).toBe(2);
    expect(countOf('POST /api/generate-image (API key)'), output).toBe(3);
  }, 180_000);

  it('measure the queue in the jobs table at depth', () => {
    const output = runBench('queue-depth.ts', ['--seconds', '0.3', '--depths', '0,20']);
    for (const depth of [0, 20])
      expect(output, `depth ${depth}`).toMatch(new RegExp(`PGlite\\s+jobs table\\s+depth\\s+${depth}\\s+\\d+ ops/s`));
    // A waiting page's read of its place, behind the whole backlog.
    expect(output).toMatch(/PGlite\s+position\s+depth\s+20\s+[\d.]+ ms a read of the last job's place \(21\)/);
  }, 180_000);

  it("measure a user's next requests against the length of their history", () => {
    const output = runBench('user-history.ts', ['--sizes', '0,50', '--calls', '3']);
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
  }, 180_000);

  it('measure a tool call against a health request, and split the thread time of each', () => {
    const output = runBench('tool-overhead.ts', ['--seconds', '1', '--concurrency', '2']);
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
    // And by statement: the tool call's three, each about once a call, named by their SQL.
    const byStatement = output.slice(output.indexOf('PGlite per tool call, by statement:'));
    expect([...byStatement.matchAll(/^ {2}[\d.]+ ms {2}(0\.9\d|1\.0\d) runs {2}\S/gm)]).toHaveLength(3);
    expect(byStatement).toContain('with sess as');
  }, 180_000);

  it('measure a batch through the local engine against single calls', () => {
    const output = runBench('batch.ts', ['--images', '2']); // exits 1 should an image fail
    expect(output).toMatch(/single calls\s+2 images\s+[\d.]+ s\s+\d+ images\/min\s+[\d.]+ s an image/);
    expect(output).toMatch(/batch\s+2 images\s+[\d.]+ s\s+\d+ images\/min\s+[\d.]+ s an image \(sending [\d.]+ s\)/);
    expect(output).toMatch(/batch overhead per image: [+-][\d.]+% \(want under \+10%\)/);
  }, 180_000);

  it('measure the colours a photo tagged Display P3 or Adobe RGB comes back with', () => {
    // One tool, the three taggings on 128 px photos (each patch still a square of pixels to read): one
    // server start (a new account's tokens pay), the upscaler's model load and three calls.
    const output = runBench('colour.ts', ['--tools', 'image-upscaler', '--side', '128'], 240_000); // exits 1 should a call fail
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
    expect(output).toMatch(/^ {2}image-upscaler\s+(ok {2}|FAIL)\s+P3 [\d.]+ \/ [\d.]+.*, Adobe RGB [\d.]+ \/ [\d.]+/m);
  }, 300_000);

  it("measure another user's file reads while one account converts results", () => {
    const output = runBench('conversion-storm.ts', ['--results', '1', '--megapixels', '0.5', '--reads', '3']);
    for (const phase of ['no storm', 'during storm'])
      expect(output, phase).toMatch(
        new RegExp(`${phase}\\s+reads\\s+\\d+\\s+median\\s+[\\d.]+ ms\\s+max\\s+[\\d.]+ ms`),
      );
    expect(output).toMatch(/ratio storm\/quiet: median [\d.]+x, max [\d.]+x/);
    expect(output).toMatch(/storm: 2 conversions in [\d.]+ s, answered 200 x2/);
  }, 180_000);

  it('measure a server start from the sources against one from the build', () => {
    const output = runBench('server-start.ts', ['--starts', '1']);
    for (const way of ['sources \\(tsx\\)', 'build \\(npm start\\)'])
      expect(output, way).toMatch(
        new RegExp(`${way}\\s+[\\d.]+ CPU-s to answer\\s+[\\d.]+ CPU-s warmed\\s+\\d+ ms to answer`),
      );
    expect(output).toMatch(/ratio build\/sources: [\d.]+x CPU to answer, [\d.]+x warmed, [\d.]+x wall/);
  }, 180_000);
});
