// Migration 0020: API keys of accounts deleted before deletion took their keys with it (issue 53
// item 6) are deleted; other accounts' keys stay.
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/client';
import { deletedEmail } from '../../src/server/profiles/profiles';
import { openEmptyPglite } from '../support/empty-pglite';
import { migrationsBefore } from '../support/migrations';

const before0020 = migrationsBefore(20);
afterAll(() => before0020.remove());

describe('migration 0020: keys of deleted accounts', () => {
  it('deletes the keys of accounts already deleted, and keeps the others', async () => {
    const database = await openEmptyPglite();
    const run = (statement: string) => database.executeSql(statement);
    try {
      await migrate(database.db as never, { migrationsFolder: before0020.folder });
      for (const [id, email] of [
        ['gone', deletedEmail('gone')],
        ['here', 'here@example.com'],
      ]) {
        await run(`insert into "user" (id, name, email, updated_at) values ('${id}', 'U', '${email}', now())`);
        await run(
          `insert into api_keys (user_id, name, prefix, key_hash) values ('${id}', 'k', 'pp_${id}', 'hash-${id}')`,
        );
      }
      await migrate(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
      const owners = (await run('select user_id from api_keys order by user_id')).rows.map(
        (row) => (row as { user_id: string }).user_id,
      );
      expect(owners).toEqual(['here']);
    } finally {
      await database.close();
    }
  });
});
