// The embedded database keeps its data in DATA_DIR across a close and reopen (a restart).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateDatabase, openPglite } from './client';
import { ensureInstance } from './instance';

describe('embedded database on disk', () => {
  it('returns the same data after a restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-pglite-'));
    try {
      const first = await openPglite({ dataDir: dir });
      await migrateDatabase(first);
      const created = await ensureInstance(first.db);
      await first.close();

      const reopened = await openPglite({ dataDir: dir });
      await migrateDatabase(reopened);
      expect(await ensureInstance(reopened.db)).toEqual(created);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
