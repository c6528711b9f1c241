// The embedded database belongs to one process at a time: two PGlite instances on one directory
// would corrupt it. A lock file names the owner's pid; a lock whose process is gone (a crash,
// SIGKILL) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid} (the running server?). Stop it first, or use PostgreSQL (DATABASE_URL) to share one database between processes.`,
    );
    this.name = 'DataDirInUseError';
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the lock for `dir` (which must exist); returns its release. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'owner.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) throw new DataDirInUseError(dir, owner);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not lock ${dir}`);
}
