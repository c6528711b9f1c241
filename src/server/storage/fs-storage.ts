import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage } from './storage';

/** Keys are ours (random ids with a folder prefix), never user input; still, refuse to leave the root. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/;

export function createFsStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!KEY_PATTERN.test(key) || key.includes('..') || !full.startsWith(path.resolve(root) + path.sep)) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return full;
  };
  return {
    kind: 'fs',
    async put(key, bytes) {
      const target = resolve(key);
      // Write aside, then rename: a crash never leaves a half-written file under the key. Each
      // write has its own name aside: two writers of one key at once (two first requests for a
      // thumbnail) must not rename the same file, or the second finds it gone (issue 36).
      const partial = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await writeFile(partial, bytes);
      } catch (error) {
        // The folder is made on the first write into it, not asked for on every write (a system
        // call of its own, ~1% of a tool call's thread time).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(partial, bytes);
      }
      await rename(partial, target);
    },
    async get(key) {
      try {
        return await readFile(resolve(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
  };
}
