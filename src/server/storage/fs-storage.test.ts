import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsStorage } from './fs-storage';

const roots: string[] = [];
function storageInTemp() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-fs-storage-'));
  roots.push(root);
  return { root, storage: createFsStorage(root) };
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('files on disk', () => {
  it('writes into folders that do not exist yet, and beside files already there', async () => {
    const { root, storage } = storageInTemp();
    await storage.put('outputs/user-1/job-1-0.png', Buffer.from('first'), 'image/png');
    await storage.put('outputs/user-1/job-2-0.png', Buffer.from('second'), 'image/png');
    expect((await storage.get('outputs/user-1/job-1-0.png'))?.toString()).toBe('first');
    expect((await storage.get('outputs/user-1/job-2-0.png'))?.toString()).toBe('second');
    // Only the files themselves: nothing half-written is left beside them.
    expect(readdirSync(path.join(root, 'outputs/user-1')).sort()).toEqual(['job-1-0.png', 'job-2-0.png']);
  });

  it('writes again into a folder removed since its last write', async () => {
    const { root, storage } = storageInTemp();
    await storage.put('inputs/user-2/a.png', Buffer.from('a'), 'image/png');
    rmSync(path.join(root, 'inputs'), { recursive: true });
    await storage.put('inputs/user-2/b.png', Buffer.from('b'), 'image/png');
    expect((await storage.get('inputs/user-2/b.png'))?.toString()).toBe('b');
    expect(await storage.get('inputs/user-2/a.png')).toBeNull();
  });

  it('takes writers of one key at the same time: each succeeds, one whole write stays (issue 36)', async () => {
    const { root, storage } = storageInTemp();
    const writes = Array.from({ length: 8 }, (_, i) => Buffer.alloc(64 * 1024, i));
    await Promise.all(writes.map((bytes) => storage.put('thumbnails/one.webp', bytes, 'image/webp')));
    const stored = await storage.get('thumbnails/one.webp');
    expect(writes.some((bytes) => stored?.equals(bytes))).toBe(true);
    expect(readdirSync(path.join(root, 'thumbnails'))).toEqual(['one.webp']);
  });

  it('refuses a key that would leave its root, and writes nothing', async () => {
    const { root, storage } = storageInTemp();
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow('invalid storage key');
    await expect(storage.put('outputs/../../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      'invalid storage key',
    );
    expect(readdirSync(root)).toEqual([]);
  });
});
