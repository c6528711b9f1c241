// Processes started at the same instant on an empty PostgreSQL, as systemd units or an
// orchestrator start them: 2 web + 2 workers, five times over. None may exit (pg-boss's schema and
// queues, before decision 045, used to race: "deadlock detected", "duplicate key ...
// pg_namespace_nspname_index"; the migrations and the installation row take turns the same way); the
// schema ends complete, and a tool call through each web process is served and charged once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUrl, dropPostgresDatabases } from '../test/support/template-db';
import { PAID_CALL, PAID_TOOL_ENV } from './support/paid-call';
import { cookieHeaderFrom, type ServerProcess, startServerProcess } from './support/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const ORIGIN = 'http://start.test';
const ROUNDS = 5;
const MIGRATIONS = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../src/server/db/migrations/meta/_journal.json'), 'utf8'),
) as { entries: unknown[] };

describe.runIf(ADMIN_URL)('2 web + 2 worker processes started together on an empty PostgreSQL', () => {
  it(`all start and serve, ${ROUNDS} times over`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const name = `pp_start_${Date.now()}_${round}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      // One DATA_DIR for all four, as the README says processes without S3 must share their files.
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-start-'));
      const env = {
        DATABASE_URL: databaseUrl(ADMIN_URL as string, name),
        BETTER_AUTH_SECRET: 'concurrent-start-secret-of-at-least-32-chars',
        APP_URL: ORIGIN,
        LOG_LEVEL: 'info',
        QUEUE_POLL_SECONDS: '0.5',
        INFERENCE_PROVIDER: 'demo',
        ...PAID_TOOL_ENV,
        NSFW_POLICY: 'allow',
      };
      const started = await Promise.allSettled(
        ['--web', '--web', '--worker', '--worker'].map((role) => startServerProcess({ env, dataDir, args: [role] })),
      );
      const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      try {
        const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason).slice(0, 2000)] : []));
        expect(failures, `round ${round}`).toEqual([]);
        const web = processes.slice(0, 2);

        await db.connect();
        const applied = await db.query('select count(*)::int as n from drizzle.__drizzle_migrations');
        expect(applied.rows[0].n, `round ${round}: migrations`).toBe(MIGRATIONS.entries.length);
        const pgBoss = await db.query(`select count(*)::int as n from pg_namespace where nspname = 'pgboss'`);
        expect(pgBoss.rows[0].n, `round ${round}: no pg-boss schema`).toBe(0);
        const instances = await db.query('select count(*)::int as n from app_instance');
        expect(instances.rows[0].n).toBe(1);

        // One verified user; a tool call through each web process, each served by a worker.
        const email = `start${round}.${Date.now()}@example.com`;
        const signUp = await fetch(`${web[0]?.url}/api/auth/sign-up/email`, {
          method: 'POST',
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'start password 42', name: 'Start' }),
        });
        expect(signUp.status).toBe(200);
        await db.query('update "user" set email_verified = true where email = $1', [email]);
        const cookie = cookieHeaderFrom(signUp);
        for (const server of web as ServerProcess[]) {
          const answer = await fetch(`${server.url}${PAID_CALL.path}`, {
            method: 'POST',
            headers: { origin: ORIGIN, 'content-type': 'application/json', cookie },
            body: JSON.stringify(PAID_CALL.body),
          });
          expect(answer.status, `round ${round} via ${server.url}`).toBe(200);
          expect(((await answer.json()) as { balance: number }).balance).toBeLessThan(20);
        }
        const debits = await db.query(
          `select count(*)::int as n, sum(delta)::int as total from ledger where reason = 'job'`,
        );
        expect(debits.rows[0]).toEqual({ n: 2, total: -2 });
        const profile = await db.query('select tokens from profiles');
        expect(profile.rows).toEqual([{ tokens: 18 }]);
      } finally {
        await db.end().catch(() => {});
        await Promise.all(processes.map((p) => p.stop()));
        rmSync(dataDir, { recursive: true, force: true });
        await dropPostgresDatabases(ADMIN_URL as string, [name]);
      }
    }
  }, 900_000);
});
