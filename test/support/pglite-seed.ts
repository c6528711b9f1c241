// A migrated PGlite data directory made once (per migrations), copied into each new server's (or CLI's)
// DATA_DIR: a first start on an empty directory spends seconds creating and migrating the database
// (initdb in wasm), which the browser tests would pay once per server they start.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR, migrateDatabase, openPglite } from '../../src/server/db/client';

const ROOT = path.resolve(import.meta.dirname, '../..');

function seedDir(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort())
    if (file.endsWith('.sql') || file.endsWith('.json'))
      hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  hash.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  return path.join(ROOT, '.tmp/e2e-seed', hash.digest('hex').slice(0, 16));
}

/** Makes the seed when it is missing (the browser tests' global setup, before any server). */
export async function ensurePgliteSeed(): Promise<void> {
  const dir = seedDir();
  if (existsSync(dir)) return;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  const database = await openPglite({ dataDir: partial });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another process (the browser tests' Vitest runs beside the others) made it first.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
}

/** Gives a new DATA_DIR its migrated database, when the seed exists (else the server makes one). */
export function seedDataDir(dataDir: string): void {
  const dir = seedDir();
  if (existsSync(dir)) cpSync(dir, path.join(dataDir, 'pglite'), { recursive: true });
}
