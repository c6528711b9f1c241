// `npm run admin` as support meets it: clear messages, exit code 1 on a problem.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePgliteSeed, seedDataDir } from '../../../test/support/pglite-seed';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-admin-'));
// A migrated database to start from: the CLI would otherwise create one (seconds of initdb).
beforeAll(async () => {
  await ensurePgliteSeed();
  seedDataDir(dataDir);
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm run admin -- <args>`: the tool from the server's build (scripts/admin.mjs). */
const admin = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/admin.mjs', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('npm run admin', () => {
  it('prints its usage', () => {
    const result = admin('help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('grant <email> <tokens>');
  });

  it('says when there is no such account', () => {
    const result = admin('lookup', 'nobody@example.com');
    expect(result.stderr.trim()).toBe('No account for nobody@example.com.');
    expect(result.status).toBe(1);
  }, 60_000);

  it('refuses to open the embedded database while the server holds it', () => {
    const pgliteDir = path.join(dataDir, 'pglite');
    mkdirSync(pgliteDir, { recursive: true });
    writeFileSync(path.join(pgliteDir, 'owner.pid'), String(process.pid));
    try {
      const result = admin('ledger-check');
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      rmSync(path.join(pgliteDir, 'owner.pid'), { force: true });
    }
  }, 60_000);
});
