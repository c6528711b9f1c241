// bench/statements: how many SQL statements one request costs, counted on PGlite (every statement
// of drizzle, better-auth and the app passes through PGlite's protocol call). Counts one
// GET /api/health, one signed-in GET /api/profile and one tool call with an instant provider
// (request, worker and answer), after a warm-up call. Prints each statement with --list.
//   npm run bench:statements -- [--list]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { grantTokens } from '../src/server/admin/commands';
import { loadConfig } from '../src/server/config';
import { accountSetups, user } from '../src/server/db/schema';
import { quietLogger } from '../src/server/log';
import { startBackend } from '../src/server/system';
import { TestClient } from '../test/support/http-client';
import { instantProvider, routerWith } from '../test/support/tool-fixtures';
import { openBenchPglite } from './bench-database';
import { watchStatements } from './pglite-protocol';

const LIST = process.argv.includes('--list');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-statements-'));
// A long lease: the worker's heartbeat and orphan sweep (each every lease/6 seconds, 5 s by default) would
// otherwise land inside a count on a loaded machine, where five counts take longer than 5 s.
const config = loadConfig({
  DATA_DIR: dataDir,
  TRUST_PROXY_HOPS: '1',
  LOG_LEVEL: 'error',
  QUEUE_POLL_SECONDS: '30',
  WORKER_LEASE_SECONDS: '600',
});
const database = await openBenchPglite();

// Every statement PGlite runs, in order (PGlite's own queries, the app's named statements, the
// simple protocol's texts, BEGIN and COMMIT), seen where they all pass (pglite-protocol.ts).
const seen: string[] = [];
let lastStatementAt = 0;
watchStatements(database.pglite, ({ statement, runs }) => {
  lastStatementAt = performance.now();
  for (let i = 0; i < runs; i++) seen.push(statement);
});

/**
 * Waits until no statement has run for 300 ms: the background work of the last request (the
 * worker's look after a job, the account's setup) is over, and a free worker slot waits idle. A
 * fixed pause was not enough on a loaded machine: counts then included the worker's own looks.
 */
async function settle() {
  const quietMs = 300;
  for (;;) {
    const quietFor = performance.now() - lastStatementAt;
    if (quietFor >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, quietMs - quietFor));
  }
}

const backend = await startBackend(config, quietLogger(), database, { inference: routerWith(instantProvider()) });
if (!backend.app) throw new Error('no web role');
const client = new TestClient(backend.app, config.appUrl);
await client.signUp('statements@example.com');
// The account's setup (customer, first mail) runs in the background: done before anything is counted.
while ((await database.db.select().from(accountSetups)).length > 0)
  await new Promise((resolve) => setTimeout(resolve, 50));
await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, 'statements@example.com'));
await grantTokens(database.db, 'statements@example.com', 1000);
const body = { prompt: 'count the statements', numOutputs: 1 };
await client.post('/api/generate-image', body); // warm-up: first-use statements do not count

async function count(name: string, request: () => Promise<unknown>) {
  await settle();
  seen.length = 0;
  await request();
  await settle();
  console.log(`${name.padEnd(36)} ${String(seen.length).padStart(3)} statements`);
  if (LIST) for (const text of seen) console.log(`    ${text.slice(0, 160)}`);
}

// An API key (issue 39): the key's owner is read in the same statement a session is.
const { key } = (await client.post<{ key: string }>('/api/keys', { name: 'statements' })).body;
const app = backend.app;
const withKey = async (path: string, init: RequestInit = {}) =>
  app.request(path, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
await withKey('/api/profile'); // its first use writes its last use (at most once a minute)

await count('GET /api/health', () => client.get('/api/health'));
await count('GET /api/profile (signed in)', () => client.get('/api/profile'));
await count('POST /api/generate-image (instant)', () => client.post('/api/generate-image', body));
await count('GET /api/profile (API key)', () => withKey('/api/profile'));
await count('POST /api/generate-image (API key)', () =>
  withKey('/api/generate-image', { method: 'POST', body: JSON.stringify(body) }),
);

await backend.stop();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
