// The SQL of batches (decision 062): the batch row, its images' jobs in their order, and its
// deletion. A batch's jobs are read through jobs_batch_item_unique (batch_id, batch_item).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { batches, files, jobs } from '../db/schema';
import type { FileRow, JobRow } from '../jobs/queue/jobs-repository';

export type BatchRow = typeof batches.$inferSelect;

export async function insertBatch(db: AppDb, batch: Pick<BatchRow, 'userId' | 'tool' | 'size'>): Promise<BatchRow> {
  const [row] = await db.insert(batches).values(batch).returning();
  if (!row) throw new Error('the batch was not inserted');
  return row;
}

/** The user's batch, or null (another user's is the same null: it is not theirs to know of). */
export async function findOwnBatch(db: AppDb, batchId: string, userId: string): Promise<BatchRow | null> {
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, batchId), eq(batches.userId, userId)));
  return row ?? null;
}

/** The batch's jobs, in their order. */
export function jobsOfBatch(db: AppDb, batchId: string): Promise<JobRow[]> {
  return db.select().from(jobs).where(eq(jobs.batchId, batchId)).orderBy(asc(jobs.batchItem));
}

/**
 * Deletes the user's batch with its jobs and (by cascade) their file rows, in one transaction, when
 * none of its images waits or runs; answers the files whose bytes are to be removed, 'running'
 * when one still does (nothing deleted), null for no such batch.
 */
export async function deleteFinishedBatch(
  db: AppDb,
  batchId: string,
  userId: string,
): Promise<FileRow[] | 'running' | null> {
  return db.transaction(async (tx) => {
    // The row locked first, so no image of it is charged while it goes (the charge reads the batch first).
    const [batch] = await tx
      .select({ id: batches.id })
      .from(batches)
      .where(and(eq(batches.id, batchId), eq(batches.userId, userId)))
      .for('update');
    if (!batch) return null;
    const [busy] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.batchId, batchId), inArray(jobs.status, ['queued', 'running'])))
      .limit(1);
    if (busy) return 'running';
    const batchFiles = await tx
      .select(filesColumns)
      .from(files)
      .innerJoin(jobs, eq(files.jobId, jobs.id))
      .where(eq(jobs.batchId, batchId));
    await tx.delete(batches).where(eq(batches.id, batchId));
    return batchFiles.map((row) => row.file);
  });
}

const filesColumns = { file: files };
