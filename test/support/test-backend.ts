// One isolated back end per test file: a fresh copy of the migrated template database (PGlite or
// PostgreSQL, per the vitest project), the queue, the worker and the Hono app, called in-process.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../src/server/config';
import { type Database, openPglite, openPostgres } from '../../src/server/db/client';
import type { NsfwClassifier } from '../../src/server/images/moderation/image-moderation';
import type { InferenceRouter } from '../../src/server/inference/routing';
import { type Logger, quietLogger, scopedLogFields } from '../../src/server/log';
import type { FileStorage } from '../../src/server/storage/storage';
import { type Backend, startBackend } from '../../src/server/system';
import { databaseUrl, dropPostgresDatabases } from './template-db';

export type TestDatabase = Database & { drop(): Promise<void> };

/** A private, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('postgresTemplate');
  if (template) {
    const name = `pp_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template ${template.templateName}`);
    } finally {
      await admin.end();
    }
    const database = await openPostgres(databaseUrl(template.adminUrl, name), { max: 4 });
    return {
      ...database,
      async drop() {
        await database.close();
        await dropPostgresDatabases(template.adminUrl, [name]);
      },
    };
  }
  const database = await openPglite({ loadDataDir: templateBlob(inject('pgliteTemplate')) });
  return { ...database, drop: () => database.close() };
}

/** The migrated template's tarball, read once per worker (a Blob is never changed by its readers). */
let template: { file: string; blob: Blob } | undefined;
function templateBlob(file: string): Blob {
  if (template?.file !== file) template = { file, blob: new Blob([readFileSync(file)]) };
  return template.blob;
}

export function testConfig(env: Record<string, string> = {}, argv: string[] = []): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-test-'));
  return loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      QUEUE_POLL_SECONDS: '0.5',
      // A retried run waits 0.2-0.4 s, then 0.4-0.8 s, not 5-30 s: the retries are what the tests
      // check, not their delay (tool-queue.test.ts checks the default's delay in the row).
      TOOL_RETRY_DELAY_SECONDS: '0.2',
      // A stop leaves a run that hangs (a test's held provider) after 2 s, not 10.
      WORKER_STOP_WAIT_SECONDS: '2',
      TRUST_PROXY_HOPS: '1',
      // Integration tests are about money and jobs, not models: the instant demo serves every tool
      // unless a test asks for the local engine (INFERENCE_PROVIDER=local) or Replicate.
      INFERENCE_PROVIDER: 'demo',
      // Tests make many calls per account in seconds; tool-call-limit.test.ts sets a real limit.
      TOOL_CALLS_PER_MINUTE: '100000',
      ...env,
    },
    argv,
  );
}

/** Finds every image neutral: the test backend's explicit-content classifier unless a test gives one. */
export const NEUTRAL_CLASSIFIER: NsfwClassifier = {
  classify: async () => ({ Drawing: 0, Hentai: 0, Neutral: 1, Porn: 0, Sexy: 0 }),
};

export type TestBackend = Backend & { app: NonNullable<Backend['app']>; config: Config; database: TestDatabase };

export async function createTestBackend(
  options: {
    env?: Record<string, string>;
    /**
     * `{ web: true, worker: false }`: no workers, so a call's job waits in the queue. Set past the
     * config's check, which asks a process without both roles for PostgreSQL: this in-process PGlite
     * backend is the only one on its database. Default: both roles.
     */
    role?: Config['role'];
    webDistDir?: string;
    inference?: InferenceRouter;
    /** Default: a classifier that finds every image neutral, so no test loads the real model unasked. */
    nsfwClassifier?: NsfwClassifier;
    storage?: FileStorage;
    /** Default: a logger that prints nothing (a test that waits for a run's end records its warnings). */
    logger?: Logger;
  } = {},
): Promise<TestBackend> {
  const config = { ...testConfig(options.env), ...(options.role ? { role: options.role } : {}) };
  const database = await createTestDatabase();
  const backend = await startBackend(config, options.logger ?? quietLogger(), database, {
    webDistDir: options.webDistDir,
    inference: options.inference,
    nsfwClassifier: options.nsfwClassifier ?? NEUTRAL_CLASSIFIER,
    storage: options.storage,
  });
  if (!backend.app) throw new Error('test backend has no web role');
  return {
    ...backend,
    database,
    app: backend.app,
    config,
    async stop() {
      await backend.stop();
      await database.drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `probe` returns a value (not undefined/null/false), polling; fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

type LogEntry = { level: 'debug' | 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> };

/**
 * A logger that keeps every line it is given: a test waits for the line that ends what it watches
 * (a run's last word) instead of sleeping, and checks that nothing went wrong.
 */
export function recordingLogger() {
  const entries: LogEntry[] = [];
  const record = (level: LogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    // As createLogger does: the fields of the work logging now (a request's id) come with each line.
    const scoped = scopedLogFields();
    entries.push({ level, message, fields: Object.keys(scoped).length > 0 ? { ...scoped, ...fields } : fields });
  };
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
  };
  return {
    logger,
    entries,
    /** Warnings and errors only. */
    problems: () => entries.filter((entry) => entry.level === 'warn' || entry.level === 'error'),
    /** How many lines match `message`. */
    count: (message: RegExp) => entries.filter((entry) => message.test(entry.message)).length,
  };
}
