// Migration 0013 (profiles.storage_used): a database that already holds files starts with each
// user's bytes counted, and from then on the triggers on `files` keep the count.
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/client';
import { openEmptyPglite } from '../support/empty-pglite';
import { migrationsBefore } from '../support/migrations';

const before0013 = migrationsBefore(13);
afterAll(() => before0013.remove());

describe('migration 0013: profiles.storage_used', () => {
  it('counts the files each user already has, then follows inserts and deletes', async () => {
    const database = await openEmptyPglite();
    const run = (statement: string) => database.executeSql(statement);
    try {
      await migrate(database.db as never, { migrationsFolder: before0013.folder });
      for (const id of ['u1', 'u2']) {
        await run(`insert into "user" (id, name, email, updated_at) values ('${id}', 'U', '${id}@example.com', now())`);
        await run(`insert into profiles (user_id, tokens) values ('${id}', 20)`);
      }
      await run(
        `insert into files (user_id, kind, storage_key, content_type, size) values
          ('u1', 'input', 'inputs/a.png', 'image/png', 1000), ('u1', 'output', 'outputs/b.png', 'image/png', 234)`,
      );
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
      const used = async () =>
        (await run('select user_id, storage_used from profiles order by user_id')).rows.map((r) =>
          Number((r as { storage_used: unknown }).storage_used),
        );
      expect(await used()).toEqual([1234, 0]);

      await run(
        `insert into files (user_id, kind, storage_key, content_type, size) values
          ('u1', 'output', 'outputs/c.png', 'image/png', 10), ('u2', 'output', 'outputs/d.png', 'image/png', 7)`,
      );
      expect(await used()).toEqual([1244, 7]);
      await run(`delete from files where storage_key in ('inputs/a.png', 'outputs/d.png')`);
      expect(await used()).toEqual([244, 0]);
    } finally {
      await database.close();
    }
  });
});
