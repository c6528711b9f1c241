// bench/statements: how many SQL statements one request costs, counted on PGlite (every statement
// of drizzle and better-auth passes through PGlite's query/exec). Counts one
// GET /api/health, one signed-in GET /api/profile and one tool call with an instant provider
// (request, worker and answer), after a warm-up call. Prints each statement with --list.
//   npm run bench:statements -- [--list]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { grantTokens } from '../src/server/admin/commands';
import { loadConfig } from '../src/server/config';
import { user } from '../src/server/db/schema';
import { quietLogger } from '../src/server/log';
import { startBackend } from '../src/server/system';
import { TestClient } from '../test/support/http-client';
import { instantProvider, routerWith } from '../test/support/tool-fixtures';
import { openBenchPglite } from './bench-database';

const LIST = process.argv.includes('--list');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-statements-'));
const config = loadConfig({ DATA_DIR: dataDir, TRUST_PROXY_HOPS: '1', LOG_LEVEL: 'error', QUEUE_POLL_SECONDS: '30' });
const database = await openBenchPglite();

// Every statement PGlite runs, in order (extended-protocol queries and simple-protocol texts).
const seen: string[] = [];
const pglite = database.pglite as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const method of ['query', 'exec'] as const) {
  const original = pglite[method]?.bind(database.pglite);
  if (!original) continue;
  pglite[method] = (text: unknown, ...rest: unknown[]) => {
    seen.push(String(text).replace(/\s+/g, ' ').trim());
    return original(text, ...rest);
  };
}
const originalTransaction = database.pglite.transaction.bind(database.pglite);
database.pglite.transaction = ((work: (tx: unknown) => Promise<unknown>) =>
  originalTransaction((tx) => {
    const counted = new Proxy(tx, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if ((key === 'query' || key === 'exec') && typeof value === 'function') {
          return (text: unknown, ...rest: unknown[]) => {
            seen.push(`  (tx) ${String(text).replace(/\s+/g, ' ').trim()}`);
            return value.call(target, text, ...rest);
          };
        }
        return value;
      },
    });
    seen.push('  (tx) BEGIN');
    return work(counted).finally(() => seen.push('  (tx) COMMIT'));
  })) as typeof database.pglite.transaction;

const backend = await startBackend(config, quietLogger(), database, { inference: routerWith(instantProvider()) });
if (!backend.app) throw new Error('no web role');
const client = new TestClient(backend.app, config.appUrl);
await client.signUp('statements@example.com');
await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, 'statements@example.com'));
await grantTokens(database.db, 'statements@example.com', 1000);
const body = { prompt: 'count the statements', numOutputs: 1 };
await client.post('/api/generate-image', body); // warm-up: first-use statements do not count

async function count(name: string, request: () => Promise<unknown>) {
  await new Promise((resolve) => setTimeout(resolve, 300)); // let background work settle
  seen.length = 0;
  await request();
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log(`${name.padEnd(36)} ${String(seen.length).padStart(3)} statements`);
  if (LIST) for (const text of seen) console.log(`    ${text.slice(0, 160)}`);
}

await count('GET /api/health', () => client.get('/api/health'));
await count('GET /api/profile (signed in)', () => client.get('/api/profile'));
await count('POST /api/generate-image (instant)', () => client.post('/api/generate-image', body));

await backend.stop();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
