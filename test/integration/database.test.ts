import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/server/db/client';
import { ensureInstance } from '../../src/server/db/instance';
import { appInstance } from '../../src/server/db/schema';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

describe('database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('applies migrations once: running them again changes nothing', async () => {
    const before = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    await migrateDatabase(database);
    const after = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(after.rows).toEqual(before.rows);
    expect(Number(before.rows[0]?.n)).toBeGreaterThan(0);
  });

  it('keeps one installation identity however often it is asked for', async () => {
    const first = await ensureInstance(database.db);
    const second = await ensureInstance(database.db);
    expect(second).toEqual(first);
    expect(first.instanceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a second installation row', async () => {
    await expect(database.db.insert(appInstance).values({ singleton: false })).rejects.toThrow();
    const rows = await database.db.select().from(appInstance);
    expect(rows).toHaveLength(1);
  });
});
