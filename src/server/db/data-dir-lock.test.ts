import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database lock', () => {
  it('refuses a directory owned by a live process', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'owner.pid'), String(process.ppid)); // the process that started us: alive
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  });

  it('takes over the lock of a process that is gone, and releases it', () => {
    const dir = tempDir();
    const gone = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim(); // exited already
    writeFileSync(path.join(dir, 'owner.pid'), gone);
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'owner.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(path.join(dir, 'owner.pid'))).toBe(false);
  });
});
