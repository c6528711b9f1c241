// PGlite has no autovacuum of its own: ours finds the tables PostgreSQL's thresholds call due,
// vacuums and analyses them, and the planner then knows their size.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmptyPglite } from '../../../test/support/empty-pglite';
import { quietLogger } from '../log';
import type { Database } from './client';
import { startPgliteAutovacuum, tablesDue, upkeepTables } from './pglite-autovacuum';

let database: Database & { pglite: { exec(text: string): Promise<unknown> } };

beforeEach(async () => {
  database = await openEmptyPglite();
  await database.pglite.exec(`create table busy (id int primary key, label text);
    create table quiet (id int primary key); insert into quiet values (1);`);
});
afterEach(() => database.close());

/**
 * PostgreSQL flushes its table statistics at most once a second: asked to flush them at once
 * instead, then read until `busy` shows up (the tries only catch a flush that never comes).
 */
async function dueOnceCounted() {
  await database.pglite.exec('select pg_stat_force_next_flush()');
  for (let tries = 0; tries < 40; tries++) {
    const due = await tablesDue(database);
    if (due.some((t) => t.table === 'public.busy')) return due;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return tablesDue(database);
}

const plannedRows = async () => {
  const { rows } = await database.executeSql('explain (format json) select * from busy', [] as unknown[]);
  const plan = (rows[0]?.['QUERY PLAN'] as { Plan: { 'Plan Rows': number } }[] | undefined)?.[0];
  return plan?.Plan['Plan Rows'];
};

describe('autovacuum for PGlite', () => {
  it('vacuums and analyses a table that changed, and then leaves it be', async () => {
    await database.pglite.exec(`insert into busy select g, 'row ' || g from generate_series(1, 5000) g;
      delete from busy where id > 4000;`);
    expect(await dueOnceCounted()).toEqual([{ table: 'public.busy', vacuum: true }]);

    expect(await upkeepTables(database)).toEqual([{ table: 'public.busy', vacuum: true }]);
    const { rows } = await database.executeSql(
      `select n_dead_tup::int as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analysed
       from pg_stat_user_tables where relname = 'busy'`,
      [] as unknown[],
    );
    expect(rows).toEqual([{ dead: 0, vacuumed: true, analysed: true }]);
    expect(await plannedRows()).toBe(4000);
    expect(await tablesDue(database)).toEqual([]);
  }, 20_000);

  it('analyses without vacuuming a table with a few changes', async () => {
    await database.pglite.exec(`insert into busy select g, 'row ' || g from generate_series(1, 2000) g;`);
    await dueOnceCounted();
    await upkeepTables(database);
    // 300 dead rows are under 50 + 20% of 2,000; 300 changed rows are over 50 + 10%.
    await database.pglite.exec(`update busy set label = 'changed' where id <= 300;`);
    expect(await dueOnceCounted()).toEqual([{ table: 'public.busy', vacuum: false }]);
  }, 20_000);

  it('runs by itself on PGlite and does nothing on PostgreSQL', async () => {
    await database.pglite.exec(`insert into busy select g, 'row ' || g from generate_series(1, 3000) g;`);
    await dueOnceCounted();
    const stop = startPgliteAutovacuum(database, quietLogger(), { everyMs: 50 });
    try {
      for (let tries = 0; tries < 40 && (await plannedRows()) !== 3000; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await plannedRows()).toBe(3000);
    } finally {
      await stop();
    }
    const postgres = { ...database, dialect: 'postgres' as const, executeSql: () => Promise.reject(new Error('used')) };
    await startPgliteAutovacuum(postgres, quietLogger(), { everyMs: 1 })();
  }, 20_000);
});
