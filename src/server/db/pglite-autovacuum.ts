// PGlite is PostgreSQL in single-user mode: no background processes, so no autovacuum. Without it
// the planner never learns how big a table has grown (a table filled since start is still planned
// as empty: the queue's take read every finished job, 1.5 ms at 3,000 jobs, 0.28 ms analysed) and
// the rows that updates and deletes leave behind are never reclaimed. This does autovacuum's work
// in the process that holds PGlite, with autovacuum's own default thresholds (decision 030).
import type { Logger } from '../log';
import type { Database } from './client';

/** PostgreSQL's defaults: autovacuum_{vacuum,vacuum_insert,analyze}_threshold and _scale_factor. */
const DUE_WHEN = {
  deadRows: { base: 50, share: 0.2 },
  insertedRows: { base: 1000, share: 0.2 },
  changedRows: { base: 50, share: 0.1 },
};
const over = (count: unknown, { base, share }: { base: number; share: number }, tableRows: number) =>
  Number(count) > base + share * tableRows;

export type TableUpkeep = { table: string; vacuum: boolean };

/**
 * The tables due for VACUUM (ANALYZE) or ANALYZE, by the cumulative statistics PostgreSQL keeps
 * (flushed about once a second). A table never analysed counts as empty (reltuples -1).
 */
export async function tablesDue(database: Pick<Database, 'executeSql'>): Promise<TableUpkeep[]> {
  const { rows } = await database.executeSql(
    `select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as table_name,
      greatest(c.reltuples, 0) as row_estimate, s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted,
      s.n_mod_since_analyze as modified
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where c.relkind = 'r'
    order by s.relid`,
  );
  const due: TableUpkeep[] = [];
  for (const row of rows) {
    const tableRows = Number(row.row_estimate);
    const vacuum = over(row.dead, DUE_WHEN.deadRows, tableRows) || over(row.inserted, DUE_WHEN.insertedRows, tableRows);
    const analyze = over(row.modified, DUE_WHEN.changedRows, tableRows);
    if (vacuum || analyze) due.push({ table: String(row.table_name), vacuum });
  }
  return due;
}

/** One round: vacuums and analyses what is due, a table at a time (each blocks PGlite briefly). */
export async function upkeepTables(database: Pick<Database, 'executeSql'>): Promise<TableUpkeep[]> {
  const due = await tablesDue(database);
  for (const { table, vacuum } of due) {
    await database.executeSql(vacuum ? `vacuum (analyze) ${table}` : `analyze ${table}`);
  }
  return due;
}

/** Checks every `everyMs` (30 s) on PGlite; nothing on PostgreSQL, which has its own. */
export function startPgliteAutovacuum(
  database: Database,
  logger: Logger,
  { everyMs = 30_000 }: { everyMs?: number } = {},
): () => Promise<void> {
  if (database.dialect !== 'pglite') return async () => {};
  let round: Promise<unknown> | null = null;
  const check = () => {
    if (round) return;
    round = upkeepTables(database)
      .then((done) => done.length > 0 && logger.debug('tables vacuumed and analysed', { tables: done }))
      .catch((error) => logger.warn('table upkeep failed', { error }))
      .finally(() => {
        round = null;
      });
  };
  const timer = setInterval(check, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
