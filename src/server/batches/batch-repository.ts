// The SQL of batches (decision 062): the batch row, its images' jobs in their order, and its
// deletion. A batch's jobs are read through jobs_batch_item_unique (batch_id, batch_item).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { batches, files, jobs } from '../db/schema';
import type { FileRow, JobRow } from '../jobs/queue/jobs-repository';

export type BatchRow = typeof batches.$inferSelect;

/** A new batch; `names`, when given, are its images' file names in their order (one per image). */
export async function insertBatch(
  db: AppDb,
  { names, ...batch }: Pick<BatchRow, 'userId' | 'tool' | 'size'> & { names?: readonly string[] },
): Promise<BatchRow> {
  const images = Object.fromEntries((names ?? []).map((name, item) => [String(item), { name }]));
  const [row] = await db
    .insert(batches)
    .values({ ...batch, images })
    .returning();
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

/**
 * Notes on the batch that the server refused its image at `item` (nothing charged, no job), with
 * the image's name and the refusal's sentence: its page, opened again, and its zip's README say
 * why. One statement, which merges into the row as it is then (two refusals at once both stay).
 */
export async function noteRefusedImage(
  db: AppDb,
  batchId: string,
  refusal: { item: number; name: string; error: string },
): Promise<void> {
  const note = sql`jsonb_build_object(${String(refusal.item)}::text, jsonb_build_object('name', ${refusal.name}::text, 'refused', ${refusal.error}::text))`;
  await db
    .update(batches)
    .set({ images: sql`${batches.images} || ${note}` })
    .where(eq(batches.id, batchId));
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
