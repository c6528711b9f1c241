// An empty PGlite database without paying for its creation each time: a new PGlite runs initdb in
// wasm (seconds, tens of seconds on a busy 2-core machine), loading a dump of a fresh one does not.
// The dump is made once and kept in .tmp/test-db by PGlite's version, not compressed (as the template's).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../../src/server/db/client';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function emptyDump(): Promise<Blob> {
  const { version } = JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  const file = path.join(ROOT, '.tmp/test-db', `pglite-empty-${version}.tar`);
  if (!existsSync(file)) {
    const fresh = await PGlite.create();
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

/** A new, empty (unmigrated) PGlite database in memory. */
export async function openEmptyPglite() {
  return openPglite({ loadDataDir: await emptyDump() });
}

/** The same as a bare PGlite instance (no app connection around it), for tests of PGlite itself. */
export async function createEmptyPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: await emptyDump() });
}
