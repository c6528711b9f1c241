// Migration 0007 (jobs.charged): jobs queued before it were all charged their full cost, and keep
// saying so; a free preview (charged 0) is allowed, more than the cost is not.
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/client';
import { openEmptyPglite } from '../support/empty-pglite';
import { migrationsBefore } from '../support/migrations';

const before0007 = migrationsBefore(7);
afterAll(() => before0007.remove());

describe('migration 0007: jobs.charged', () => {
  it('marks earlier jobs charged their cost, and allows 0 up to the cost', async () => {
    const database = await openEmptyPglite();
    try {
      await migrate(database.db as never, { migrationsFolder: before0007.folder });
      await database.executeSql(
        `insert into "user" (id, name, email, updated_at) values ('u1', 'U', 'u1@example.com', now())`,
      );
      await database.executeSql(
        `insert into jobs (user_id, tool, cost, input, provider, request_hash) values ('u1', 'colorizer', 6, '{}', 'replicate', 'h')`,
      );
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
      expect(await database.executeSql('select cost, charged from jobs')).toMatchObject({
        rows: [{ cost: 6, charged: 6 }],
      });
      const insert = (charged: number) =>
        database.executeSql(
          `insert into jobs (user_id, tool, cost, charged, input, provider, request_hash) values ('u1', 'colorizer', 6, ${charged}, '{}', 'demo', 'h')`,
        );
      await insert(0);
      await expect(insert(7)).rejects.toThrow(/jobs_charged_within_cost/);
    } finally {
      await database.close();
    }
  });
});
