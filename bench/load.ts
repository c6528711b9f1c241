// bench/load: tool calls at 100 concurrent connections for 30 s (autocannon) against the real app
// with an instant provider, on PGlite and, where PostgreSQL is installed, on PostgreSQL, printed
// side by side. Users run out of tokens during the run, so 402s are expected; anything else that
// is not a 200 is an error. Afterwards the ledger must be exact: one debit per job, every balance
// equal to the sum of its ledger rows, none below zero.
//   npm run bench:load -- [--seconds 30] [--connections 100] [--users 20] [--tokens 100] [--cluster] [--no-pglite]
// PostgreSQL: BENCH_DATABASE_URL (an empty database), else a private cluster (scripts/pg-cluster.sh),
// with a fresh database for each run. --cluster adds, on PostgreSQL, two processes with both roles
// (one per core) and cluster mode (2 web + 2 worker processes, `npm start -- --web` / `--worker`),
// the connections split between the web processes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { arg, brokenInvariants, combined, cpuMs, hammer, type Role, startLoadServer } from './load/harness';

const SECONDS = arg('seconds', 30);
const CONNECTIONS = arg('connections', 100);
const USERS = arg('users', 20);
const TOKENS = arg('tokens', 100);
const CLUSTER = process.argv.includes('--cluster');
/** --no-pglite: PostgreSQL's runs only. */
const PGLITE = !process.argv.includes('--no-pglite');
const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * One run on processes of the given roles sharing one database. The first (a web role) makes the
 * users and at the end waits for the jobs and checks the ledger; then the others stop.
 */
async function run(label: string, databaseUrl: string, roles: [Role, ...Role[]] = ['both']) {
  const [firstRole, ...otherRoles] = roles;
  const first = await startLoadServer(databaseUrl, USERS, TOKENS, { role: firstRole });
  const others = await Promise.all(
    otherRoles.map((role) => startLoadServer(databaseUrl, 0, TOKENS, { role, dataDir: first.ready.dataDir })),
  );
  const web = [first, ...others].filter((server) => server.ready.port > 0);
  const share = Math.floor(CONNECTIONS / web.length);
  const pids = [first, ...others].map((server) => server.pid);
  const cpuBefore = cpuMs(pids);
  const loads = await Promise.all(
    web.map((server, i) => hammer(first.ready, share, SECONDS, server.ready.port, i * share)),
  );
  const cpuAfter = cpuMs(pids);
  // The check waits until every job has finished (the workers still running), and a second for the
  // requests still waiting on them; only then do the others stop.
  const check = await first.check();
  await Promise.all(others.map((server) => server.stop()));
  const load = combined(loads);
  // CPU per answered call during the load (the calls still running at its end are few).
  const calls = Math.max(1, load.ok + load.refused);
  const cpu =
    cpuBefore && cpuAfter
      ? {
          server: (cpuAfter.servers - cpuBefore.servers) / calls,
          postgres: (cpuAfter.postgres - cpuBefore.postgres) / calls,
        }
      : null;
  return { label, ...load, check, cpu };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

type Postgres = { url: string; stop: () => void; fresh: () => Promise<string> };

async function postgresUrl(): Promise<Postgres | null> {
  if (process.env.BENCH_DATABASE_URL) {
    const url = process.env.BENCH_DATABASE_URL;
    return { url, stop: () => {}, fresh: async () => url };
  }
  try {
    execFileSync('bash', ['-c', 'command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-load-pg-'));
  const script = path.join(ROOT, 'scripts/pg-cluster.sh');
  const url = execFileSync(script, ['start', dir, String(await freePort())], { encoding: 'utf8' }).trim();
  let databases = 0;
  return {
    url,
    // Each run on an empty database of its own, as the first one.
    fresh: async () => {
      const name = `pp_load_${++databases}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return url.replace(/\/postgres$/, `/${name}`);
    },
    stop: () => {
      execFileSync(script, ['stop', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

console.log(
  `load: POST /api/generate-image, ${CONNECTIONS} connections for ${SECONDS} s, ${USERS} users with ${TOKENS} tokens each, instant provider\n`,
);
const runs = PGLITE ? [await run('PGlite (embedded)', '')] : [];
const postgres = await postgresUrl();
if (postgres) {
  try {
    runs.push(await run('PostgreSQL', await postgres.fresh()));
    if (CLUSTER) {
      runs.push(await run('PG, 2 processes (both roles)', await postgres.fresh(), ['both', 'both']));
      runs.push(await run('PG, 2 web + 2 workers', await postgres.fresh(), ['web', 'web', 'worker', 'worker']));
    }
  } finally {
    postgres.stop();
  }
} else console.log('PostgreSQL not installed here: PGlite only.\n');

const rows: [string, (r: (typeof runs)[number]) => string][] = [
  ['requests answered', (r) => String(Object.values(r.codes).reduce((a, b) => a + b, 0))],
  ['req/s (mean)', (r) => r.result.requests.average.toFixed(0)],
  ['200 (charged and done)', (r) => String(r.ok)],
  ['402 (out of tokens)', (r) => String(r.refused)],
  ['other answers and errors', (r) => String(r.other)],
  ['  status codes', (r) => JSON.stringify(r.codes)],
  ['  socket errors / timeouts', (r) => `${r.result.errors} / ${r.result.timeouts}`],
  ['latency p50 / p99 / max ms', (r) => `${r.result.latency.p50} / ${r.result.latency.p99} / ${r.result.latency.max}`],
  ['jobs / debits / succeeded', (r) => `${r.check.jobs} / ${r.check.debits} / ${r.check.succeeded}`],
  ['ledger mismatches', (r) => String(r.check.mismatches)],
  ['balances below zero', (r) => String(r.check.negativeBalances)],
  ['server RSS after, MB', (r) => String(r.check.rssMb)],
  ['CPU ms per call: server', (r) => (r.cpu ? r.cpu.server.toFixed(2) : 'n/a')],
  ['CPU ms per call: PostgreSQL', (r) => (r.cpu && r.label !== 'PGlite (embedded)' ? r.cpu.postgres.toFixed(2) : '-')],
];
// Each column as wide as its widest cell, and two spaces between.
const table = [['', ...runs.map((r) => r.label)], ...rows.map(([name, value]) => [name, ...runs.map(value)])];
const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0)) + 2) ?? [];
for (const row of table)
  console.log(
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('')
      .trimEnd(),
  );
if (PGLITE && runs.length >= 2) {
  const [a, b] = runs as [(typeof runs)[number], (typeof runs)[number]];
  console.log(
    `\nPostgreSQL / PGlite: throughput ${(b.result.requests.average / a.result.requests.average).toFixed(2)}x, p99 ${(b.result.latency.p99 / a.result.latency.p99).toFixed(2)}x`,
  );
}
// The invariants: every 200 is one job and one debit, and nothing else went wrong.
const broken = runs.filter((r) => brokenInvariants(r, r.check).length > 0);
if (broken.length) {
  console.log(`\nFAILED on ${broken.map((r) => r.label).join(', ')}`);
  process.exit(1);
}
process.exit(0);
