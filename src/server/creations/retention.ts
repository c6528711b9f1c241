// Retention (decision 022): uploads are deleted `uploadRetentionDays` after their job, results
// `resultRetentionDays` after. Every worker process sweeps hourly; a file row is taken by exactly
// one DELETE ... RETURNING (PostgreSQL's row locks), so in cluster mode each file is deleted once,
// and a sweep that dies after the rows leaves only bytes nobody can reach (no URL names them).
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { files } from '../db/schema';
import { removeFiles } from '../jobs/job-files';
import type { Logger } from '../log';
import type { FileStorage } from '../storage/storage';
import { thumbnailKey } from './thumbnails';

export type RetentionSettings = { uploadRetentionDays: number; resultRetentionDays: number };

const SWEEP_BATCH = 500;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

const olderThan = (days: number) => lt(files.createdAt, sql`now() - make_interval(days => ${days})`);

/** One sweep: deletes the expired files (rows, then bytes and thumbnails); answers how many. */
export async function sweepExpiredFiles(db: AppDb, storage: FileStorage, settings: RetentionSettings) {
  let deleted = 0;
  for (;;) {
    const expired = db
      .select({ id: files.id })
      .from(files)
      .where(
        or(
          // A matte (decision 082) is of the upload: it goes with it, and is no use without it.
          and(inArray(files.kind, ['input', 'matte']), olderThan(settings.uploadRetentionDays)),
          and(eq(files.kind, 'output'), olderThan(settings.resultRetentionDays)),
        ),
      )
      .limit(SWEEP_BATCH);
    const rows = await db.delete(files).where(inArray(files.id, expired)).returning();
    await removeFiles(storage, [...rows, ...rows.map((f) => ({ storageKey: thumbnailKey(f.id) }))]);
    deleted += rows.length;
    if (rows.length < SWEEP_BATCH) return deleted;
  }
}

/** Sweeps now and then hourly; the returned function stops it (and awaits a round). */
export function startRetentionSweep(
  deps: { db: AppDb; storage: FileStorage; logger: Logger },
  settings: RetentionSettings,
): () => Promise<void> {
  let round: Promise<unknown> | null = null;
  const sweep = () => {
    if (round) return;
    round = sweepExpiredFiles(deps.db, deps.storage, settings)
      .then((deleted) => deleted > 0 && deps.logger.info('expired files deleted', { deleted }))
      .catch((error) => deps.logger.error('retention sweep failed', { error }))
      .finally(() => {
        round = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}
