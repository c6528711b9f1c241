// The migrations folder as it was before a given migration, to test what a migration does to the
// rows an older database already holds.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../../src/server/db/client';

/** A copy of the migrations whose journal stops before migration `idx`; `remove()` deletes it. */
export function migrationsBefore(idx: number): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pp-migrations-'));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < idx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
