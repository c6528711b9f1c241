// Statements pipelined as one transaction in one round trip (db/pipeline.ts): the charge runs this
// way after the user's profile lock on PostgreSQL, and PGlite runs the same call in a transaction.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { postgresClientOf } from '../../src/server/db/client';
import { errorChain } from '../../src/server/db/connection-errors';
import { executePipelined } from '../../src/server/db/pipeline';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.executeSql(`create table pl_account (id int primary key, balance int not null);
    insert into pl_account values (1, 10);
    create table pl_item (id int primary key, account int, note jsonb, tags text[], at timestamptz)`);
});
afterAll(() => database.drop());

/** PostgreSQL's error code, also when drizzle (PGlite's path) wraps the driver's error. */
const hasCode = (code: string) => (error: unknown) => [...errorChain(error)].some((e) => e.code === code);

const items = async () =>
  (await database.executeSql('select id from pl_item order by id')).rows.map((row) => Number(row.id));

const insertItem = (id: number) =>
  sql`insert into pl_item (id, account, note, tags, at) values (${id}, 1, ${JSON.stringify({ id, nothing: null })}::jsonb,
    ${sql.param([`tag ${id}`, 'two'])}::text[], ${new Date(Date.UTC(2026, 10, 26, 12, 0, id))}) returning id`;

describe('executePipelined', () => {
  it('answers each statement’s rows in order, each seeing the writes before it', async () => {
    for (const id of [1, 2]) {
      const [inserted, read, none] = await executePipelined(database.db, [
        insertItem(id),
        sql`select id, note, tags, at = ${new Date(Date.UTC(2026, 10, 26, 12, 0, id))} as same_time, ${null}::text as empty
          from pl_item where id = ${id}`,
        sql`update pl_account set balance = balance where id = ${-1}`,
      ]);
      expect(inserted?.rows).toEqual([{ id }]);
      expect(read?.rows).toEqual([
        { id, note: { id, nothing: null }, tags: [`tag ${id}`, 'two'], same_time: true, empty: null },
      ]);
      expect(none?.rows).toEqual([]);
    }
    expect(await items()).toEqual([1, 2]);
  });

  it('is one transaction: a failing statement undoes the ones before it, and the connection goes on', async () => {
    const before = await items();
    // More times than the pool has connections, so every connection meets both failures.
    for (let round = 0; round < 6; round++) {
      // Fails when run (a duplicate key): the insert before it is rolled back.
      await expect(
        executePipelined(database.db, [
          insertItem(100 + round),
          sql`update pl_account set balance = balance - 1 where id = 1`,
          insertItem(1),
        ]),
      ).rejects.toSatisfy(hasCode('23505'));
      // Fails to parse: nothing runs.
      await expect(executePipelined(database.db, [insertItem(200 + round), sql`selec ${round}`])).rejects.toSatisfy(
        hasCode('42601'),
      );
      // A value node-postgres cannot send: nothing is sent at all, and the connection is kept.
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const pool = postgresClientOf(database.db) as { totalCount?: number } | null; // PostgreSQL's pool
      const connections = pool?.totalCount;
      await expect(
        executePipelined(database.db, [insertItem(300 + round), sql`select ${circular}::jsonb`]),
      ).rejects.toThrow();
      expect(pool?.totalCount).toBe(connections);
      // The same named statements work again on every connection afterwards.
      const [inserted] = await executePipelined(database.db, [insertItem(400 + round), sql`select 1 as one`]);
      expect(inserted?.rows).toEqual([{ id: 400 + round }]);
    }
    expect(await items()).toEqual([...before, 400, 401, 402, 403, 404, 405]);
    expect((await database.executeSql('select balance from pl_account where id = 1')).rows).toEqual([{ balance: 10 }]);
  });

  it('joins the transaction it is given', async () => {
    const before = await items();
    await expect(
      database.db.transaction(async (tx) => {
        const [inserted] = await executePipelined(tx, [insertItem(500)]);
        expect(inserted?.rows).toEqual([{ id: 500 }]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await items()).toEqual(before);
  });

  // Concurrency needs a second connection: PostgreSQL only (PGlite runs one statement at a time).
  if (inject('postgresTemplate')) {
    it('runs a statement after a lock with what was committed while the lock was waited for', async () => {
      const lock = sql`select id from pl_account where id = 1 for update`;
      let commit = () => {};
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = database.db.transaction(async (tx) => {
        await tx.execute(lock);
        await tx.execute(insertItem(600));
        locked();
        await new Promise<void>((resolve) => {
          commit = resolve;
        });
      });
      await holding;
      const countItems = sql`select count(*)::int as items from pl_item where id = 600`;
      const pipelined = executePipelined(database.db, [lock, countItems]);
      // The same lock and count as one statement: its snapshot is taken before it waits. (Started
      // now: a drizzle query runs when awaited.)
      const oneStatement = Promise.resolve(
        database.db.execute(
          sql`with locked as (${lock}) select (select count(*)::int from pl_item where id = 600) as items, (select count(*)::int from locked) as locked`,
        ),
      );
      const waiting = async () =>
        Number(
          (
            await database.executeSql(
              `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rows[0]?.n,
        );
      try {
        for (let tries = 0; (await waiting()) < 2 && tries < 200; tries++) await new Promise((r) => setTimeout(r, 25));
        expect(await waiting()).toBe(2);
      } finally {
        commit();
        await holder;
      }
      expect((await pipelined)[1]?.rows).toEqual([{ items: 1 }]);
      expect(((await oneStatement) as { rows: unknown[] }).rows).toEqual([{ items: 0, locked: 1 }]);
    });
  }
});
