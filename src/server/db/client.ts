// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL with DATABASE_URL.
// The same drizzle schema, queries and migrations run on both.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { namedStatements } from './pglite-statements';
import * as schema from './schema';

export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;
export type SqlRows = { rows: Record<string, unknown>[] };
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<SqlRows>;

export interface Database {
  dialect: 'pglite' | 'postgres';
  db: AppDb;
  /** Raw SQL (health checks, upkeep, tests); multi-statement text is allowed without values. */
  executeSql: SqlExecutor;
  /**
   * Runs `work` while holding a cluster-wide lock named by `key`, so that of several processes
   * only one does it at a time (migrations at start, for example). PGlite serves one process.
   */
  runExclusive<T>(key: number, work: (db: AppDb) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL: calls `onPayload` with each NOTIFY on `channel` from any process, on a connection of
   * its own that reconnects when lost; the answer stops listening. (PGlite serves one process.)
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * PGlite is a single connection: it queues queries behind a running transaction, so code inside
 * `db.transaction` must use its `tx` (a query on `db` there would wait for itself).
 */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob } = {},
): Promise<Database & { pglite: PGlite }> {
  let unlock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(options);
  } catch (error) {
    unlock();
    throw error;
  }
  // drizzle is given PGlite's own query, exec and transaction, its transactions counted, so that the
  // named statements of executePrepared never run inside one (pglite-statements.ts).
  const named = namedStatements(client);
  const db = drizzlePglite({ client: named.client as unknown as PGlite, schema }) as unknown as AppDb;
  pgliteOf.set(db, named);
  return {
    dialect: 'pglite',
    pglite: client,
    db,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      // The simple protocol runs several statements in one text.
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    runExclusive: (_key, work) => work(db),
    async close() {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  // Pipeline mode: a client writes the queries it is given without waiting for each answer (one
  // query at a time, as drizzle sends them, runs as before); executeInOneRoundTrip uses it.
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, pipeline: true });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor one in use: a dead socket fails its queries (their callers see it, and the pool drops the
  // client when it comes back), then pg emits the error on the client too, which the pool listens to
  // only while the client is idle. In pipeline mode a write to the closed socket (EPIPE) does that:
  // unhandled, it ended the server during a database restart.
  pool.on('connect', (client) => client.on('error', () => {}));
  await pool.query('select 1');
  const db = drizzlePg({ client: pool, schema }) as unknown as AppDb;
  poolOf.set(db, pool);
  return {
    dialect: 'postgres',
    db,
    executeSql: async (text, values) => {
      const result = await pool.query(values?.length ? { name: preparedName(text), text, values } : text);
      // A multi-statement text returns one result per statement: keep the last, as PGlite does.
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: last?.rows ?? [] };
    },
    async runExclusive(key, work) {
      // Advisory locks belong to a session: lock, work and unlock on one dedicated connection.
      const session = await pool.connect();
      try {
        await session.query('select pg_advisory_lock($1)', [key]);
        try {
          return await work(drizzlePg({ client: session, schema }) as unknown as AppDb);
        } finally {
          await session.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        session.release();
      }
    },
    listen: (channel, onPayload) => listenOn(url, channel, onPayload),
    close: () => pool.end(),
  };
}

/**
 * LISTEN on a client outside the pool (it stays busy listening); lost (an error or the server ending
 * it), it is opened again a second later, once however many ways the loss is reported.
 */
async function listenOn(url: string, channel: string, onPayload: (payload: string) => void) {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let retrying = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    let gone = false;
    const lost = () => {
      if (gone) return; // 'error' and then 'end' for one loss
      gone = true;
      if (client === next) client = null;
      void next.end().catch(() => {});
      if (!stopped) retry();
    };
    next.on('error', lost);
    next.on('end', lost);
    await next.connect();
    await next.query(`listen ${channel}`);
    if (stopped) await next.end();
    else client = next;
  };
  const retry = () => {
    if (retrying) return;
    retrying = true;
    setTimeout(() => {
      retrying = false;
      if (!stopped) connect().catch(retry);
    }, 1000).unref();
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}

/**
 * The queue's and the session's statements run thousands of times with the same text; as named
 * (prepared) statements each connection plans them once instead of on every call (planning was
 * most of their cost). Only parameterised texts are named, and only so many: a text built with
 * inlined values must not fill every connection with prepared statements.
 */
const MAX_PREPARED_STATEMENTS = 200;
/**
 * Names statements by their text (`prefix` and a hash), remembering the first 200 texts; undefined
 * for any text after those. Each user of names on a connection has its own prefix, as each keeps
 * its own account of what that connection has parsed.
 */
export function statementNamer(prefix: string): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    const known = names.get(text);
    if (known || names.size >= MAX_PREPARED_STATEMENTS) return known;
    const name = `${prefix}${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
}
const preparedName = statementNamer('pp_');

/** The connections behind the databases this module opened (public handles, kept here rather than read from drizzle). */
const poolOf = new WeakMap<object, pg.Pool>();
const pgliteOf = new WeakMap<object, ReturnType<typeof namedStatements>>();

/** Whether `db` is a PGlite database this module opened, not one of its transactions: its statements run one at a time. */
export function isTopLevelPglite(db: object): boolean {
  return pgliteOf.has(db);
}

/** Compiles drizzle's `sql` to text and parameters (drizzle's public dialect, as its sessions do). */
const dialect = new PgDialect();

/**
 * `db.execute(query)` for the hand-written statements of every tool call (the session read with the
 * count, the charge, the take, the finish), whose CTEs cost more to plan than to run: as named
 * (prepared) statements, so that each connection plans each text once (decision 046). On PostgreSQL
 * through node-postgres's own `query({ name, text, values })` (named by the text's hash, at most 200
 * texts per connection); on PGlite through `pglite-statements.ts` (PGlite's public protocol API).
 * Either way the rows are those `db.execute` answers (dates and times as text). Inside a
 * transaction (`tx`) it is `tx.execute`, unnamed.
 */
export async function executePrepared(db: Pick<AppDb, 'execute'>, query: SQL): Promise<SqlRows> {
  const pool = poolOf.get(db);
  if (pool) {
    const result = await pool.query(namedQuery(query));
    return { rows: result.rows };
  }
  const pglite = pgliteOf.get(db);
  if (pglite) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await pglite.query<Record<string, unknown>>(text, params, PGLITE_RAW_ROWS);
    return { rows: result.rows };
  }
  const result = (await db.execute(query)) as unknown as SqlRows;
  return { rows: result.rows ?? [] };
}

/**
 * Several statements as ONE transaction in ONE round trip on PostgreSQL (decision 032, now public):
 * named as executePrepared's, on one connection of the pool in node-postgres's pipeline mode, so
 * BEGIN, the statements and COMMIT are written together and answered together. Under READ COMMITTED
 * each statement takes its own snapshot when it starts, so a statement after a row lock sees every
 * commit made while the lock was waited for. A statement that fails aborts the transaction (the ones
 * after it fail, COMMIT answers ROLLBACK) and its error is thrown. A value node-postgres might fail
 * to encode (anything but a string, number, boolean, null, Date or Buffer) could leave its statement
 * unsent while COMMIT goes out: such a call runs one statement at a time instead (four round trips),
 * rolled back on any error. Null where `db` is not a PostgreSQL database this module opened (PGlite,
 * a transaction).
 */
export async function executeInOneRoundTrip(db: object, queries: SQL[]): Promise<SqlRows[] | null> {
  const pool = poolOf.get(db);
  if (!pool) return null;
  const statements = queries.map(namedQuery);
  const client = await pool.connect();
  let lost: Error | undefined;
  try {
    if (statements.every((statement) => statement.values.every(sentAsIs))) {
      const answers = await Promise.allSettled([
        client.query('begin'),
        ...statements.map((statement) => client.query(statement)),
        client.query('commit'),
      ]);
      const failed = answers.find((answer) => answer.status === 'rejected');
      if (failed) {
        // A statement's error leaves the connection ready for its next use; a lost one is let go.
        if (!(failed.reason instanceof pg.DatabaseError)) lost = failed.reason as Error;
        throw failed.reason;
      }
      return answers
        .slice(1, -1)
        .map((answer) => ({ rows: (answer as PromiseFulfilledResult<pg.QueryResult>).value.rows }));
    }
    await client.query('begin');
    try {
      const results: SqlRows[] = [];
      for (const statement of statements) results.push({ rows: (await client.query(statement)).rows });
      await client.query('commit');
      return results;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        lost = rollbackError;
      });
      throw error;
    }
  } finally {
    client.release(lost);
  }
}

/** A value node-postgres sends as it is (its encoding of anything else may throw). */
const sentAsIs = (value: unknown) =>
  value === null ||
  value === undefined ||
  ['string', 'number', 'boolean', 'bigint'].includes(typeof value) ||
  value instanceof Date ||
  Buffer.isBuffer(value);

/** drizzle's `sql` as a node-postgres named query (text and parameters compiled by drizzle's public dialect). */
function namedQuery(query: SQL) {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: preparedName(text), text, values: params, types: POSTGRES_RAW_TYPES };
}

/** drizzle-orm/node-postgres's raw query types: dates, times and their arrays stay text, as in its `db.execute`. */
const keepPgText = (value: string) => value;
const RAW_TEXT_TYPES = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const POSTGRES_RAW_TYPES = {
  getTypeParser: ((type: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(type) ? keepPgText : pg.types.getTypeParser(type, format)) as typeof pg.types.getTypeParser,
};

/** drizzle-orm/pglite's raw query options: dates, times and numeric arrays stay text, as everywhere else. */
const keepText = (value: string) => value;
const PGLITE_RAW_ROWS = {
  rowMode: 'object',
  parsers: Object.fromEntries(
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((type) => [
      type,
      keepText,
    ]),
  ),
} as const;

export type DatabaseLocation = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };

export function openDatabase(location: DatabaseLocation): Promise<Database> {
  return location.kind === 'pglite' ? openPglite({ dataDir: location.dir }) : openPostgres(location.url);
}

/**
 * Any fixed number: the key of the advisory lock under which one process at a time changes the
 * database's shape at start (migrations, seed rows: system.ts).
 */
export const SCHEMA_LOCK_KEY = 7_261_104;

/** Applies pending migrations on `db`; the caller holds SCHEMA_LOCK_KEY. */
export function applyMigrations(dialect: Database['dialect'], db: AppDb): Promise<void> {
  return dialect === 'pglite'
    ? migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR })
    : migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
}

/** Applies pending migrations. On PostgreSQL several processes may start at once: one migrates. */
export function migrateDatabase(database: Database): Promise<void> {
  return database.runExclusive(SCHEMA_LOCK_KEY, (db) => applyMigrations(database.dialect, db));
}
