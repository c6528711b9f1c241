// The server under load, in a process of its own (the load generator must not share its event
// loop): the real app on 127.0.0.1 with an instant provider, on PGlite in memory or on the
// PostgreSQL database given as argv[2]. It makes USERS verified users with TOKENS tokens each and
// sends the parent {port, origin, cookies}; on 'check' it answers what the database holds.
// Cluster runs (bench/load.ts --cluster) start several, each with a role (argv[5]: both, web or
// worker, as `npm start -- --web` / `--worker`); the others make no users (USERS 0), share the
// first one's files folder (argv[6]) and exit on 'stop'.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { eq, inArray, lt, sql } from 'drizzle-orm';
import { grantTokens } from '../../src/server/admin/commands';
import { loadConfig } from '../../src/server/config';
import { openPglite, openPostgres } from '../../src/server/db/client';
import { jobs, ledger, profiles, user } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { startBackend } from '../../src/server/system';
import { TestClient } from '../../test/support/http-client';
import { instantProvider, routerWith } from '../../test/support/tool-fixtures';

const [, , databaseUrl = '', usersArg = '20', tokensArg = '200', roleArg = 'both', sharedDataDir] = process.argv;
const USERS = Number(usersArg);
const TOKENS = Number(tokensArg);
const roleFlags = roleArg === 'both' ? [] : [`--${roleArg}`];

const dataDir = sharedDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'pp-load-'));
const config = loadConfig(
  {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    TRUST_PROXY_HOPS: '1',
    // The bench drives a few accounts as hard as it can: not what the per-account limit is for.
    TOOL_CALLS_PER_MINUTE: '100000',
    ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: 'load-bench-secret-of-at-least-32-chars' } : {}),
  },
  roleFlags,
);
const database = databaseUrl ? await openPostgres(databaseUrl, { max: 20 }) : await openPglite();
const backend = await startBackend(config, quietLogger(), database, { inference: routerWith(instantProvider()) });
const app = backend.app;
// A worker-only process serves nothing.
const server =
  app &&
  (await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  }));
const closeServer = () => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));

const cookies: string[] = [];
for (let i = 0; app && i < USERS; i++) {
  const email = `load${i}.${Date.now()}@example.com`;
  const client = new TestClient(app, config.appUrl);
  await client.signUp(email);
  await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  await grantTokens(database.db, email, TOKENS - 20);
  cookies.push(client.cookieHeader());
}
process.send?.({ port: server ? (server.address() as AddressInfo).port : 0, origin: config.appUrl, cookies, dataDir });

process.on('message', async (message) => {
  if (message === 'rss') {
    // After a full collection (the process runs with --expose-gc): what the server really keeps.
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ rssMb: process.memoryUsage().rss / 2 ** 20, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
    return;
  }
  if (message === 'stop') {
    // A cluster's other process: stops taking requests, lets its jobs in hand finish, exits.
    await closeServer();
    await backend.stop();
    await database.close();
    process.send?.('stopped');
    process.exit(0);
  }
  if (message !== 'check') return;
  // Stop taking requests, then let every accepted call finish its job: only then do the counts
  // describe a system at rest (read mid-flight, a job committed between two counts looks wrong).
  await closeServer();
  for (let waited = 0; waited < 120; waited++) {
    const [busy] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(inArray(jobs.status, ['queued', 'running']));
    if (!busy?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const [jobRows] = await database.db.select({ n: sql<number>`count(*)::int` }).from(jobs);
  const [debits] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledger)
    .where(eq(ledger.reason, 'job'));
  const [succeeded] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.status, 'succeeded'));
  const mismatches = await findLedgerMismatches(database.db);
  const [negative] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(profiles)
    .where(lt(profiles.tokens, 0));
  process.send?.({
    jobs: jobRows?.n,
    debits: debits?.n,
    succeeded: succeeded?.n,
    mismatches: mismatches.length,
    negativeBalances: negative?.n ?? 0,
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  });
  await backend.stop();
  await database.close();
  if (!sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
