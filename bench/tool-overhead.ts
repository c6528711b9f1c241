// bench/tool-overhead: what a tool call costs on top of the provider. A real HTTP server on
// 127.0.0.1 (PGlite in memory, an instant provider), N concurrent clients for a fixed time (or a
// fixed number of requests each, --requests: what bench/benches.test.ts runs, the same on any machine):
// tool calls (debit + job + queue + worker + stored output + response) against GET /api/health
// on the same server in the same run. Prints throughput, p50/p99 and the ratios, and where the
// thread's time per request went: inside PGlite's wasm (every statement runs to its end on this
// thread) and everything else (HTTP server and this bench's own client, the app, the output file).
// Paired: the same again with METRICS=off, and what counting for GET /metrics costs a tool call
// (issue 57: under 5% of its thread time); --rounds n repeats the pair.
//   npm run bench -- [--seconds 10 | --requests 20] [--concurrency 8] [--rounds 1]
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { grantTokens } from '../src/server/admin/commands';
import { loadConfig } from '../src/server/config';
import { user } from '../src/server/db/schema';
import { quietLogger } from '../src/server/log';
import { startBackend } from '../src/server/system';
import { TestClient } from '../test/support/http-client';
import { instantProvider, routerWith } from '../test/support/tool-fixtures';
import { openBenchPglite } from './bench-database';
import { threadCpuMs, watchStatements } from './pglite-protocol';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
/** Requests each client sends in a phase, instead of sending for SECONDS (0: by time). */
const REQUESTS = arg('requests', 0);
const CONCURRENCY = arg('concurrency', 8);
/** Pairs of runs with metrics on and off (the order alternating). */
const ROUNDS = arg('rounds', 1);

type Run = {
  requests: number;
  errors: number;
  latencies: number[];
  seconds: number;
  threadMs: number;
  /** This thread's CPU time (user + system): unlike its busy time, not stretched when the machine's other work takes the core. */
  cpuMs: number;
  /** PGlite's time in this phase, by statement, per request. */
  statements: ReturnType<typeof statementsSince>;
};

/**
 * Milliseconds PGlite has spent running statements (its wasm, on this thread), counted by
 * `timeDatabase` by statement text, with how many times each ran.
 */
const statementMs = new Map<string, { runs: number; ms: number; cpuMs: number }>();

/** Counts the time of every statement PGlite runs: its protocol calls are synchronous wasm. */
function timeDatabase(pglite: object) {
  watchStatements(pglite, ({ statement, runs, ms, cpuMs }) => {
    const entry = statementMs.get(statement) ?? { runs: 0, ms: 0, cpuMs: 0 };
    entry.runs += runs;
    entry.ms += ms;
    entry.cpuMs += cpuMs;
    statementMs.set(statement, entry);
  });
}

/** What each statement cost a request in a phase: the counts since `before` (a copy taken at its start). */
function statementsSince(before: Map<string, { runs: number; ms: number; cpuMs: number }>, requests: number) {
  return [...statementMs]
    .map(([name, now]) => {
      const then = before.get(name) ?? { runs: 0, ms: 0, cpuMs: 0 };
      return {
        name,
        runsPerRequest: (now.runs - then.runs) / requests,
        msPerRequest: (now.ms - then.ms) / requests,
        cpuMsPerRequest: (now.cpuMs - then.cpuMs) / requests,
      };
    })
    .filter((s) => s.runsPerRequest > 0)
    .sort((a, b) => b.msPerRequest - a.msPerRequest);
}

async function load(send: () => Promise<Response>): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const more = (sent: number) => (REQUESTS > 0 ? sent < REQUESTS : Date.now() < end);
  const started = performance.now();
  const utilization = performance.eventLoopUtilization();
  const cpuStarted = threadCpuMs();
  const statementsBefore = new Map([...statementMs].map(([name, entry]) => [name, { ...entry }]));
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let sent = 0; more(sent); sent++) {
        const t = performance.now();
        const response = await send();
        await response.arrayBuffer();
        latencies.push(performance.now() - t);
        if (!response.ok) errors++;
      }
    }),
  );
  return {
    requests: latencies.length,
    errors,
    latencies,
    seconds: (performance.now() - started) / 1000,
    threadMs: performance.eventLoopUtilization(utilization).active,
    cpuMs: threadCpuMs() - cpuStarted,
    statements: statementsSince(statementsBefore, latencies.length),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

function summary(name: string, run: Run) {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const rps = run.requests / run.seconds;
  console.log(
    `${name.padEnd(22)} ${rps.toFixed(1).padStart(8)} req/s   p50 ${percentile(sorted, 0.5).toFixed(1).padStart(7)} ms   p99 ${percentile(sorted, 0.99).toFixed(1).padStart(7)} ms   errors ${run.errors}`,
  );
  const thread = run.threadMs / run.requests;
  const database = run.statements.reduce((sum, s) => sum + s.msPerRequest, 0);
  console.log(
    `${''.padEnd(22)} thread ${thread.toFixed(2)} ms a request: PGlite ${database.toFixed(2)} ms, the rest ${(thread - database).toFixed(2)} ms`,
  );
  const cpu = run.cpuMs / run.requests;
  const databaseCpu = run.statements.reduce((sum, s) => sum + s.cpuMsPerRequest, 0);
  console.log(
    `${''.padEnd(22)} cpu    ${cpu.toFixed(2)} ms a request: PGlite ${databaseCpu.toFixed(2)} ms, the rest ${(cpu - databaseCpu).toFixed(2)} ms`,
  );
  return { rps, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), thread, database, cpu, databaseCpu };
}

async function measure(metrics: 'on' | 'off') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-'));
  const config = loadConfig({
    METRICS: metrics,
    DATA_DIR: dataDir,
    QUEUE_POLL_SECONDS: '0.5',
    TRUST_PROXY_HOPS: '1',
    // The bench drives a few accounts as hard as it can: not what the per-account limit is for.
    TOOL_CALLS_PER_MINUTE: '100000',
    LOG_LEVEL: 'error',
  });
  const database = await openBenchPglite();
  timeDatabase(database.pglite);
  const backend = await startBackend(config, quietLogger(), database, { inference: routerWith(instantProvider()) });
  if (!backend.app) throw new Error('no web role');
  const app = backend.app;
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const client = new TestClient(app, config.appUrl);
  await client.signUp('bench@example.com');
  await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, 'bench@example.com'));
  await grantTokens(database.db, 'bench@example.com', 1_000_000);
  const headers = { cookie: client.cookieHeader(), origin: config.appUrl, 'content-type': 'application/json' };
  const body = JSON.stringify({ prompt: 'benchmark', numOutputs: 1 });

  const each = REQUESTS > 0 ? `${REQUESTS} requests` : `${SECONDS} s`;
  console.log(
    `tool-overhead: ${CONCURRENCY} concurrent clients, ${each} each, PGlite in memory, instant provider, METRICS=${metrics}`,
  );
  const health = summary('GET /api/health', await load(() => fetch(`${base}/api/health`)));
  const toolRun = await load(() => fetch(`${base}/api/generate-image`, { method: 'POST', headers, body }));
  const tool = summary('POST /api/generate-image', toolRun);
  console.log(
    `ratio tool/health: throughput ${(tool.rps / health.rps).toFixed(3)}x, p50 ${(tool.p50 / health.p50).toFixed(1)}x, p99 ${(tool.p99 / health.p99).toFixed(1)}x`,
  );
  // The one thread is the bottleneck of both phases, so the p50 ratio follows the ratio of thread
  // time. Its floor: a tool call's statements plus the HTTP round trip that a health request pays
  // too (its time outside PGlite), as if the app's own work cost nothing.
  const floor = (tool.database + health.thread - health.database) / health.thread;
  console.log(
    `thread time tool/health ${(tool.thread / health.thread).toFixed(1)}x; floor (the tool call's statements + a health request's time outside PGlite) ${floor.toFixed(1)}x`,
  );
  // Decision 050's target: a tool call's thread time within 2x of that floor. In CPU time as well:
  // on a busy machine the thread's busy time also counts the moments another process had the core.
  const floorMs = tool.database + health.thread - health.database;
  const floorCpuMs = tool.databaseCpu + health.cpu - health.databaseCpu;
  console.log(
    `tool call / floor: thread time ${(tool.thread / floorMs).toFixed(2)}x (floor ${floorMs.toFixed(2)} ms), cpu ${(tool.cpu / floorCpuMs).toFixed(2)}x (floor ${floorCpuMs.toFixed(2)} ms)`,
  );
  // Which statements the tool call's PGlite time went to (those run at least once per 10 calls).
  console.log('PGlite per tool call, by statement:');
  for (const s of toolRun.statements.filter((s) => s.runsPerRequest >= 0.1)) {
    const text = s.name;
    console.log(
      `  ${s.msPerRequest.toFixed(3)} ms  ${s.runsPerRequest.toFixed(2)} runs  ${text.length > 90 ? `${text.slice(0, 87)}...` : text}`,
    );
  }

  server.close();
  await backend.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return tool;
}

/** Each pair's tool call with and without metrics: what counting costs its thread and CPU time. */
async function main() {
  const pairs: Array<{ on: ReturnType<typeof summary>; off: ReturnType<typeof summary> }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Each second pair the other way round: the first run of a process also warms its code up.
    if (round % 2 === 0) {
      const on = await measure('on');
      pairs.push({ on, off: await measure('off') });
    } else {
      const off = await measure('off');
      pairs.push({ off, on: await measure('on') });
    }
  }
  const share = (on: number, off: number) => `${(((on - off) / off) * 100).toFixed(1)}%`;
  for (const { on, off } of pairs) {
    console.log(
      `metrics on / off, a tool call's time: thread ${on.thread.toFixed(2)} / ${off.thread.toFixed(2)} ms (${share(on.thread, off.thread)}), cpu ${on.cpu.toFixed(2)} / ${off.cpu.toFixed(2)} ms (${share(on.cpu, off.cpu)})`,
    );
  }
}

// Awaited, so that bench/in-one-process.ts can run the next bench once this one has ended.
await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
