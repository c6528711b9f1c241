// Statements as one transaction in one round trip on PostgreSQL (db/client.ts executeInOneRoundTrip,
// node-postgres's public pipeline mode; decisions 032 and 046): the charge runs this way after the
// user's profile lock. On PGlite (one statement at a time) there is no such call: the charge runs alone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { executeInOneRoundTrip, type SqlRows } from '../../src/server/db/client';
import { errorChain } from '../../src/server/db/connection-errors';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.executeSql(`create table pl_account (id int primary key, balance int not null);
    insert into pl_account values (1, 10);
    create table pl_item (id int primary key, account int, note jsonb, tags text[], at timestamptz)`);
});
afterAll(() => database.drop());

/** PostgreSQL's error code, also when a driver's error is wrapped. */
const hasCode = (code: string) => (error: unknown) => [...errorChain(error)].some((e) => e.code === code);

const items = async () =>
  (await database.executeSql('select id from pl_item order by id')).rows.map((row) => Number(row.id));

const insertItem = (id: number) =>
  sql`insert into pl_item (id, account, note, at) values (${id}, 1, ${JSON.stringify({ id, nothing: null })}::jsonb,
    ${new Date(Date.UTC(2026, 10, 26, 12, 0, id))}) returning id`;

/** executeInOneRoundTrip on PostgreSQL (never null there). */
const inOneRoundTrip = async (queries: ReturnType<typeof sql>[]) =>
  (await executeInOneRoundTrip(database.db, queries)) as SqlRows[];

describe.runIf(inject('postgresTemplate'))('executeInOneRoundTrip on PostgreSQL', () => {
  it('answers each statement’s rows in order, each seeing the writes before it', async () => {
    for (const id of [1, 2]) {
      const [inserted, read, none] = await inOneRoundTrip([
        insertItem(id),
        sql`select id, note, at = ${new Date(Date.UTC(2026, 10, 26, 12, 0, id))} as same_time, ${null}::text as empty,
          at::text = at::text as at_as_text from pl_item where id = ${id}`,
        sql`update pl_account set balance = balance where id = ${-1}`,
      ]);
      expect(inserted?.rows).toEqual([{ id }]);
      expect(read?.rows).toEqual([{ id, note: { id, nothing: null }, same_time: true, empty: null, at_as_text: true }]);
      expect(none?.rows).toEqual([]);
    }
    expect(await items()).toEqual([1, 2]);
  });

  it('is one transaction: a failing statement undoes the ones before it, and the connection goes on', async () => {
    const before = await items();
    // More times than the pool has connections, so every connection meets every failure.
    for (let round = 0; round < 6; round++) {
      // Fails when run (a duplicate key): the insert before it is rolled back.
      await expect(
        inOneRoundTrip([
          insertItem(100 + round),
          sql`update pl_account set balance = balance - 1 where id = 1`,
          insertItem(1),
        ]),
      ).rejects.toSatisfy(hasCode('23505'));
      // Fails to parse: nothing runs.
      await expect(inOneRoundTrip([insertItem(200 + round), sql`selec ${round}`])).rejects.toSatisfy(hasCode('42601'));
      // A value node-postgres cannot encode: its statement is never sent, and nothing before it stays.
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      await expect(inOneRoundTrip([insertItem(300 + round), sql`select ${circular}::jsonb`])).rejects.toThrow();
      // The same named statements work again on every connection afterwards.
      const [inserted] = await inOneRoundTrip([insertItem(400 + round), sql`select 1 as one`]);
      expect(inserted?.rows).toEqual([{ id: 400 + round }]);
    }
    expect(await items()).toEqual([...before, 400, 401, 402, 403, 404, 405]);
    expect((await database.executeSql('select balance from pl_account where id = 1')).rows).toEqual([{ balance: 10 }]);
  });

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
    const pipelined = inOneRoundTrip([lock, countItems]);
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
});

describe.runIf(!inject('postgresTemplate'))('executeInOneRoundTrip on PGlite', () => {
  it('answers null: the caller runs its statement alone', async () => {
    expect(await executeInOneRoundTrip(database.db, [sql`select 1`])).toBeNull();
  });
});
