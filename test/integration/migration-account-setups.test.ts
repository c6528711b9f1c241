// Migration 0016 (decision 045): pg-boss is retired. The account setups it still held (waiting, due
// for a retry, or taken by a process that has stopped) become `account_setups` rows, and its schema
// goes; a database that never had pg-boss migrates as well.
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/client';
import { openEmptyPglite } from '../support/empty-pglite';
import { migrationsBefore } from '../support/migrations';

const before0016 = migrationsBefore(16);
afterAll(() => before0016.remove());

describe('migration 0016: account setups leave pg-boss', () => {
  it("carries pg-boss's unfinished account setups over and drops its schema", async () => {
    const database = await openEmptyPglite();
    try {
      await migrate(database.db as never, { migrationsFolder: before0016.folder });
      await database.executeSql(`
        insert into "user" (id, name, email, updated_at) values
          ('waiting', 'W', 'w@example.com', now()), ('retrying', 'R', 'r@example.com', now()),
          ('running', 'A', 'a@example.com', now()), ('done', 'D', 'd@example.com', now()),
          ('failed', 'F', 'f@example.com', now());
        -- pg-boss 10's job table, the columns the migration reads.
        create schema pgboss;
        create type pgboss.job_state as enum ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
        create table pgboss.job (id uuid primary key default gen_random_uuid(), name text not null,
          data jsonb, state pgboss.job_state not null default 'created');
        insert into pgboss.job (name, data, state) values
          ('account-setup', '{"userId": "waiting"}', 'created'),
          ('account-setup', '{"userId": "retrying"}', 'retry'),
          ('account-setup', '{"userId": "running"}', 'active'),
          ('account-setup', '{"userId": "done"}', 'completed'),
          ('account-setup', '{"userId": "failed"}', 'failed'),
          ('account-setup', '{"userId": "deleted-since"}', 'created'),
          ('system-ping', '{"nonce": "x"}', 'created');`);
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
      const { rows } = await database.executeSql('select user_id, attempts from account_setups order by user_id');
      expect(rows).toEqual([
        { user_id: 'retrying', attempts: 0 },
        { user_id: 'running', attempts: 0 },
        { user_id: 'waiting', attempts: 0 },
      ]);
      const schemas = await database.executeSql(`select count(*)::int as n from pg_namespace where nspname = 'pgboss'`);
      expect(schemas.rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  });

  it('migrates a database that never had pg-boss', async () => {
    const database = await openEmptyPglite();
    try {
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
      expect((await database.executeSql('select count(*)::int as n from account_setups')).rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  });
});
