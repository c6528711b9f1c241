// The SQL of My Creations beyond its pages (jobs/views/job-pages.ts, shared with GET /api/jobs): a
// page's files, ledger rows and batch sizes, the removal of a job's files, the bytes stored.
import { and, eq, inArray, or } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { batches, files, jobs, ledger, profiles } from '../db/schema';
import type { FileRow, JobRow } from '../jobs/queue/jobs-repository';

/**
 * How many images the batches of these jobs hold, by batch id (none for single calls): each batch's
 * size, the images the user chose, whether sent, refused or not (issue 54), not only its jobs.
 */
export async function batchImageCounts(db: AppDb, pageJobs: JobRow[]): Promise<Map<string, number>> {
  const ids = [...new Set(pageJobs.flatMap((job) => (job.batchId ? [job.batchId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: batches.id, images: batches.size }).from(batches).where(inArray(batches.id, ids));
  return new Map(rows.map((row) => [row.id, row.images]));
}

/**
 * The versions of these jobs' results (decision 082), by original job id, oldest first: the
 * original and every version refined from it; only originals that have a refined version.
 */
export async function versionsOfJobs(db: AppDb, pageJobs: JobRow[]): Promise<Map<string, string[]>> {
  const originals = [...new Set(pageJobs.map((job) => job.parentJobId ?? job.id))];
  if (originals.length === 0) return new Map();
  const rows = await db
    .select({ id: jobs.id, parentJobId: jobs.parentJobId })
    .from(jobs)
    .where(or(inArray(jobs.parentJobId, originals), inArray(jobs.id, originals)))
    .orderBy(jobs.createdAt, jobs.id);
  const refined = new Set(rows.flatMap((row) => (row.parentJobId ? [row.parentJobId] : [])));
  const versions = new Map<string, string[]>();
  for (const row of rows) {
    const original = row.parentJobId ?? row.id;
    if (refined.has(original)) versions.set(original, [...(versions.get(original) ?? []), row.id]);
  }
  return versions;
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

/**
 * Bytes of the user's stored images (inputs and outputs; thumbnails are small and not counted):
 * profiles.storage_used, which triggers on `files` keep equal to the sum of their sizes.
 */
export async function storageUsedBy(db: AppDb, userId: string): Promise<number> {
  const [row] = await db.select({ used: profiles.storageUsed }).from(profiles).where(eq(profiles.userId, userId));
  return Number(row?.used ?? 0);
}
