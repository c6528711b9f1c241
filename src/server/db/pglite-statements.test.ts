// Named statements on PGlite through its public API (decision 046): parsed once, answered as
// PGlite's own `query` answers, errors included, never more statements kept than the limit, and
// never run inside another caller's transaction.
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmptyPglite, openEmptyPglite } from '../../../test/support/empty-pglite';
import { executePrepared, type SqlRows } from './client';
import { namedStatements } from './pglite-statements';

let pglite: PGlite;
let named: ReturnType<typeof namedStatements>;
let plain: PGlite;

const preparedTexts = async (db: PGlite) =>
  (await db.query<{ statement: string }>('select statement from pg_prepared_statements order by statement')).rows.map(
    (row) => row.statement,
  );

const createItems = (db: PGlite) =>
  db.exec(`drop table if exists item; create table item (id int primary key, label text not null, tags text[], meta jsonb,
      made timestamptz not null default '2026-01-02T03:04:05Z')`);

beforeAll(async () => {
  [plain, pglite] = await Promise.all([createEmptyPglite(), createEmptyPglite()]);
});
afterAll(() => Promise.all([plain.close(), pglite.close()]));

beforeEach(async () => {
  // One instance for the file (a new one each test was most of the file's CPU time), with no
  // statement kept from another test and a new wrapper, whose names start again from 1.
  await pglite.exec('deallocate all');
  named = namedStatements(pglite, { max: 3 });
  await Promise.all([createItems(pglite), createItems(plain)]);
});

describe('named statements on PGlite', () => {
  it('answers every kind of statement exactly as the unnamed path does', async () => {
    const statements: [string, unknown[], Parameters<PGlite['query']>[2]?][] = [
      [
        'insert into item (id, label, tags, meta) values ($1, $2, $3, $4) returning *',
        [1, 'one', ['a', 'b'], { k: 1 }],
      ],
      ['insert into item (id, label, meta) values ($1, $2, $3)', [2, 'two', null]],
      ['update item set label = $1 where id > $2', ['many', 0]],
      ['select id, label, tags, meta, made from item where id = any($1) order by id', [[1, 2]]],
      ['select id, label from item where id = $1', [2], { rowMode: 'array' }],
      ['select count(*)::int as n, $1::text as echo from item', ['x']],
      // A caller's own parsers (executePrepared passes some with every query) over PGlite's for the rest.
      [
        'select made, made::text as made_text, id, meta from item where id = $1',
        [1],
        { parsers: { 1184: (value: string) => `as sent: ${value}` } },
      ],
      ['delete from item where id = $1 returning id', [2]],
    ];
    for (const [text, params, options] of statements) {
      const [mine, theirs] = await Promise.all([
        named.query(text, params, options),
        plain.query(text, params, options),
      ]);
      expect(mine, text).toEqual(theirs);
    }
  });

  it('parses a text once and keeps it under a name', async () => {
    for (let id = 1; id <= 4; id++) await named.query('insert into item (id, label) values ($1, $2)', [id, `n${id}`]);
    expect(await preparedTexts(pglite)).toEqual(['insert into item (id, label) values ($1, $2)']);
    expect((await named.query('select count(*)::int as n from item where id > $1', [0])).rows).toEqual([{ n: 4 }]);
  });

  it('keeps no more statements than its limit, dropping the least recently used', async () => {
    const texts = [1, 2, 3, 4].map((n) => `select id from item where id = $1 and ${n} = ${n}`);
    for (const text of texts) await named.query(text, [1]);
    await named.query(texts[1] as string, [1]); // used again: now the most recent
    await named.query('select label from item where id = $1', [1]);
    expect(await preparedTexts(pglite)).toEqual(
      ['select label from item where id = $1', texts[1] as string, texts[3] as string].sort(),
    );
  });

  it('reports a failing statement as PGlite does, and goes on working', async () => {
    const text = 'insert into item (id, label) values ($1, $2)';
    await named.query(text, [1, 'one']);
    const failure = await named.query(text, [1, 'again']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23505', query: text, params: [1, 'again'] });
    const syntax = await named.query('selec id from item where id = $1', [1]).catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: '42601' });
    expect(await preparedTexts(pglite)).toEqual([text]);
    expect((await named.query('select label from item where id = $1', [1])).rows).toEqual([{ label: 'one' }]);
  });

  it('parses a statement again when its table changed shape', async () => {
    await named.query('insert into item (id, label) values ($1, $2)', [1, 'one']);
    const text = 'select * from item where id = $1';
    expect(Object.keys((await named.query<object>(text, [1])).rows[0] ?? {})).not.toContain('extra');
    await pglite.exec('alter table item add column extra int default 7');
    expect((await named.query<{ extra: number }>(text, [1])).rows[0]?.extra).toBe(7);
  });

  it("waits for the app's open transaction instead of running inside it", async () => {
    let letGo = () => {};
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let begun = () => {};
    const begins = new Promise<void>((resolve) => {
      begun = resolve;
    });
    // Through `client`, as drizzle's transactions go.
    const other = named.client.transaction(async (tx) => {
      await tx.query('insert into item (id, label) values ($1, $2)', [1, 'rolled back']);
      begun();
      await held; // between its statements: a statement run now would be part of this transaction
      await tx.rollback();
    });
    await begins;
    const mine = named.query('insert into item (id, label) values ($1, $2) returning id', [2, 'mine']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    letGo();
    await other;
    expect((await mine).rows).toEqual([{ id: 2 }]);
    expect((await pglite.query('select id, label from item order by id')).rows).toEqual([{ id: 2, label: 'mine' }]);
  });
});

describe('executePrepared on PGlite', () => {
  it("answers the rows drizzle's own execute does, outside and inside a transaction, named outside", async () => {
    const database = await openEmptyPglite();
    try {
      const { db } = database;
      await db.execute(sql`create table item (id int primary key, made timestamptz not null, day date, meta jsonb)`);
      await db.execute(sql`insert into item values (1, '2026-01-02T03:04:05Z', '2026-01-02', '{"k":[1,2]}')`);
      const query = () => sql`select id, made, day, meta, made + interval '1 hour' as later from item where id = ${1}`;
      const drizzles = ((await db.execute(query())) as unknown as SqlRows).rows;
      expect(drizzles[0]?.made).toEqual(expect.any(String)); // drizzle keeps times as text on PGlite
      // Twice: the second call meets the statement already named and its parsers already merged.
      expect((await executePrepared(db, query())).rows).toEqual(drizzles);
      expect((await executePrepared(db, query())).rows).toEqual(drizzles);
      expect(await preparedTexts(database.pglite)).toEqual([
        "select id, made, day, meta, made + interval '1 hour' as later from item where id = $1",
      ]);
      const inTransaction = await db.transaction((tx) => executePrepared(tx, query()));
      expect(inTransaction.rows).toEqual(drizzles);
    } finally {
      await database.close();
    }
  });
});
