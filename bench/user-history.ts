// bench/user-history: what a user's past costs their next requests. For each history size (jobs a
// user already made, each with an input and an output file), a fresh PGlite in memory, that user
// seeded, then sequential requests by them: a tool call with an instant provider, My Creations'
// first page, the storage usage, and a page filtered by a tool they never used (the filter's worst
// case: every past job is passed over; it grows with the history, docs/performance.md). Prints the
// PGlite time per request (every statement on its one thread) and each size's ratio to an empty
// history: a request that reads the user's whole past grows with it; one that reads what it needs
// does not.
//   npm run bench:history -- [--sizes 0,1000,20000] [--calls 200] [--warm-up 20]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { grantTokens } from '../src/server/admin/commands';
import { loadConfig } from '../src/server/config';
import { user } from '../src/server/db/schema';
import { quietLogger } from '../src/server/log';
import { startBackend } from '../src/server/system';
import { TestClient } from '../test/support/http-client';
import { instantProvider, routerWith } from '../test/support/tool-fixtures';
import { openBenchPglite } from './bench-database';
import { watchStatements } from './pglite-protocol';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const SIZES = option('sizes', '0,1000,20000').split(',').map(Number);
const CALLS = Number(option('calls', '200'));
/** Requests of each kind sent first, not counted: their statements named and planned. */
const WARM_UP = Number(option('warm-up', '20'));

type Figures = Record<string, number>; // request -> PGlite ms per request

async function measure(historySize: number): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-history-'));
  const config = loadConfig({ DATA_DIR: dataDir, TOOL_CALLS_PER_MINUTE: '100000', LOG_LEVEL: 'error' });
  const database = await openBenchPglite();
  const backend = await startBackend(config, quietLogger(), database, { inference: routerWith(instantProvider()) });
  if (!backend.app) throw new Error('no web role');
  const client = new TestClient(backend.app, config.appUrl);
  const email = 'history@example.com';
  await client.signUp(email);
  await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  await grantTokens(database.db, email, 1_000_000);
  const [{ id } = { id: '' }] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (historySize > 0) {
    // Finished an hour ago, an input and an output each (as an image tool leaves them).
    await database.db.execute(sql`
      insert into jobs (user_id, tool, status, cost, charged, input, provider, request_hash, attempts,
        created_at, started_at, finished_at, result)
      select ${id}, 'upscaler', 'succeeded', 2, 2, '{}'::jsonb, 'instant', 'seeded', 1,
        now() - interval '1 hour' - make_interval(secs => n), now() - interval '1 hour', now() - interval '1 hour', '{}'::jsonb
      from generate_series(1, ${historySize}) as n`);
    await database.db.execute(sql`
      insert into files (user_id, job_id, kind, storage_key, content_type, size)
      select user_id, id, kind, kind || 's/' || id || '.png', 'image/png', 10000
      from jobs, (values ('input'), ('output')) as k(kind) where user_id = ${id} and request_hash = 'seeded'`);
    await database.pglite.exec('analyze');
  }

  // PGlite's statements run to their end on this thread: their time is the time of its protocol calls.
  let databaseMs = 0;
  watchStatements(database.pglite, ({ ms }) => {
    databaseMs += ms;
  });

  const requests: Record<string, () => Promise<{ status: number }>> = {
    'POST /api/generate-image': () => client.post('/api/generate-image', { prompt: 'history', numOutputs: 1 }),
    'GET /api/creations': () => client.get('/api/creations'),
    'GET /api/creations/usage': () => client.get('/api/creations/usage'),
    // A tool the user has never used: the worst case of the filter (every past job passed over).
    'GET /api/creations by tool': () => client.get('/api/creations?tool=colorizer'),
  };
  const figures: Figures = {};
  for (const [name, send] of Object.entries(requests)) {
    for (let i = 0; i < WARM_UP; i++) await send();
    databaseMs = 0;
    for (let i = 0; i < CALLS; i++) {
      const answer = await send();
      if (answer.status !== 200) throw new Error(`${name}: ${answer.status}`);
    }
    figures[name] = databaseMs / CALLS;
  }
  await backend.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
}

console.log(`user-history: PGlite in memory, ${CALLS} sequential requests each, after ${WARM_UP} not counted`);
const bySize = new Map<number, Figures>();
for (const size of SIZES) {
  const figures = await measure(size);
  bySize.set(size, figures);
  const base = bySize.get(SIZES[0] ?? 0) ?? figures;
  for (const [name, ms] of Object.entries(figures)) {
    console.log(
      `history ${String(size).padStart(6)} jobs  ${name.padEnd(26)} PGlite ${ms.toFixed(3).padStart(7)} ms a request  x${(ms / (base[name] ?? ms)).toFixed(2)}`,
    );
  }
}
