// The SQL of My Creations: a user's jobs page by page with their files and ledger rows, and the
// removal of a job's files. Pages are ordered by (created_at to the millisecond, id), the cursor's
// own precision, so that no job is skipped or repeated between pages.
import { type AnyColumn, and, desc, eq, inArray, or, type SQL, sql, sum } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { files, jobs, ledger } from '../db/schema';
import type { FileRow, JobRow } from '../jobs/jobs-repository';

export type PageCursor = { createdAt: Date; id: string };

const createdMs = sql`date_trunc('milliseconds', ${jobs.createdAt})`;

/** The user's jobs, newest first, after `cursor`, optionally of one tool. */
export function listCreationJobs(
  db: AppDb,
  userId: string,
  options: { tool: string | null; cursor: PageCursor | null; limit: number },
): Promise<JobRow[]> {
  const after: SQL | undefined = options.cursor
    ? sql`(${createdMs}, ${jobs.id}) < (${options.cursor.createdAt.toISOString()}::timestamptz, ${options.cursor.id}::uuid)`
    : undefined;
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), options.tool ? eq(jobs.tool, options.tool) : undefined, after))
    .orderBy(desc(createdMs), desc(jobs.id))
    .limit(options.limit);
}

/** The files of these jobs (inputs and outputs). */
export function filesOfJobs(db: AppDb, jobIds: string[]): Promise<FileRow[]> {
  if (jobIds.length === 0) return Promise.resolve([]);
  return db.select().from(files).where(inArray(files.jobId, jobIds)).orderBy(files.storageKey);
}

/** Tokens taken and given back per job, from the ledger (reason job / refund, reference the job id). */
export async function chargesOfJobs(
  db: AppDb,
  jobIds: string[],
): Promise<Map<string, { charged: number; refunded: number }>> {
  const charges = new Map<string, { charged: number; refunded: number }>();
  if (jobIds.length === 0) return charges;
  const rows = await db
    .select({ reference: ledger.reference, reason: ledger.reason, delta: ledger.delta })
    .from(ledger)
    .where(and(inArray(ledger.reference, jobIds), or(eq(ledger.reason, 'job'), eq(ledger.reason, 'refund'))));
  for (const row of rows) {
    const entry = charges.get(row.reference) ?? { charged: 0, refunded: 0 };
    if (row.reason === 'job') entry.charged += -row.delta;
    else entry.refunded += row.delta;
    charges.set(row.reference, entry);
  }
  return charges;
}

/**
 * Deletes the user's finished job and (by cascade) its file rows, in one transaction; answers the
 * files whose bytes are to be removed, 'running' for a queued or running job, null for no such job.
 */
export async function deleteFinishedJob(
  db: AppDb,
  jobId: string,
  userId: string,
): Promise<FileRow[] | 'running' | null> {
  return db.transaction(async (tx) => {
    const jobFiles = await tx.select().from(files).where(eq(files.jobId, jobId));
    const [deleted] = await tx
      .delete(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId), inArray(jobs.status, ['succeeded', 'failed'])))
      .returning({ id: jobs.id });
    if (deleted) return jobFiles;
    const [exists] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)));
    return exists ? 'running' : null;
  });
}

/** Bytes of the user's stored images (inputs and outputs; thumbnails are small and not counted). */
export async function storageUsedBy(db: AppDb, userId: string): Promise<number> {
  const [row] = await db
    .select({ used: sum(files.size) })
    .from(files)
    .where(eq(files.userId, userId));
  return Number(row?.used ?? 0);
}

/** storageUsedBy as a subquery of another statement, for the user in `userId` (a column or expression; null: none). */
export const storageUsedSql = (userId: AnyColumn | SQL) =>
  sql<string | null>`(select sum(${files.size}) from ${files} where ${files.userId} = ${userId})`;
