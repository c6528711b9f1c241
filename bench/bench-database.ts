// The embedded database a bench measures on: a new PGlite, or, with BENCH_PGLITE_DUMP naming a
// migrated database's dump (bench/benches.test.ts passes the test suite's template), a copy of it,
// which skips seconds of initdb and migrations that no bench measures.
import { readFileSync } from 'node:fs';
import { openPglite } from '../src/server/db/client';

export function openBenchPglite() {
  const dump = process.env.BENCH_PGLITE_DUMP;
  return openPglite(dump ? { loadDataDir: new Blob([readFileSync(dump)]) } : {});
}
