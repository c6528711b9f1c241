// The SQL of the tool-job path on `jobs` and its `files`, in one place: the request path, the
// worker and the views call these and never build a query on the job tables themselves (the fair
// queue's rounds and the orphan sweep keep their few queries beside their own logic).
import { and, count, desc, eq, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { files, jobs } from '../db/schema';
import type { DbOrTx } from '../ledger/ledger';
import { servedBefore } from './fair-queue';

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
export type NewFile = typeof files.$inferInsert;
export type FileRow = typeof files.$inferSelect;

/**
 * The run of a job that may finish it: the attempt its worker claimed. A job handed back from a
 * worker presumed dead (orphaned-jobs.ts) is claimed again with another attempt, so the first run,
 * should it still be going somewhere, can no longer finish it. Null: whoever finds it running.
 */
export type JobRun = { attempt: number } | null;

const heldBy = (run: JobRun) => (run ? and(eq(jobs.status, 'running'), eq(jobs.attempts, run.attempt)) : undefined);

export async function findJob(db: AppDb, jobId: string): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  return row ?? null;
}

/** The user's job, or null for a missing one and another user's alike. */
export async function findOwnJob(db: AppDb, jobId: string, userId: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)));
  return row ?? null;
}

export async function findJobByIdempotencyKey(db: AppDb, userId: string, key: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), eq(jobs.idempotencyKey, key)));
  return row ?? null;
}

/** The user's jobs, newest first, `limit` of them created before `before` (a cursor). */
export function listOwnJobs(db: AppDb, userId: string, options: { before: Date | null; limit: number }) {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), options.before ? lt(jobs.createdAt, options.before) : undefined))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(options.limit);
}

export async function insertJob(tx: DbOrTx, values: NewJob): Promise<JobRow> {
  const [row] = await tx.insert(jobs).values(values).returning();
  if (!row) throw new Error(`job ${values.id} was not inserted`);
  return row;
}

export async function insertFiles(tx: DbOrTx, rows: NewFile[]): Promise<void> {
  if (rows.length > 0) await tx.insert(files).values(rows);
}

/** A job's input files, in the order of its input. */
export function inputFilesOf(db: AppDb, jobId: string): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.jobId, jobId), eq(files.kind, 'input')))
    .orderBy(files.storageKey);
}

/**
 * Takes a queued (or handed-back) job for this worker: running, one more attempt, its lease. Null
 * when it is already final or with its provider, which calls back (a duplicate delivery).
 */
export async function claimJob(db: AppDb, jobId: string, workerId: string | null): Promise<JobRow | null> {
  const [row] = await db
    .update(jobs)
    .set({ status: 'running', startedAt: sql`now()`, attempts: sql`${jobs.attempts} + 1`, workerId })
    .where(and(eq(jobs.id, jobId), inArray(jobs.status, ['queued', 'running']), isNull(jobs.providerRef)))
    .returning();
  return row ?? null;
}

/** The provider's own id for a job it will finish later (webhook mode). */
export async function setProviderRef(db: AppDb, jobId: string, providerRef: string, run: JobRun): Promise<void> {
  await db
    .update(jobs)
    .set({ providerRef })
    .where(and(eq(jobs.id, jobId), heldBy(run)));
}

export async function findRunningJob(db: AppDb, jobId: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'running')));
  return row ?? null;
}

/** Marks a job failed unless it is final (or no longer held by `run`); the row, or null. */
export async function markFailed(tx: DbOrTx, jobId: string, message: string, run: JobRun): Promise<JobRow | null> {
  const [row] = await tx
    .update(jobs)
    .set({ status: 'failed', error: message, finishedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), notInArray(jobs.status, ['succeeded', 'failed']), heldBy(run)))
    .returning();
  return row ?? null;
}

/**
 * Marks a running job succeeded with its result and the provider that served it; false if someone
 * else finished it (or took it from `run`).
 */
export async function markSucceeded(
  tx: DbOrTx,
  jobId: string,
  result: unknown,
  run: JobRun,
  provider: string,
): Promise<boolean> {
  const [done] = await tx
    .update(jobs)
    .set({ status: 'succeeded', result, provider, finishedAt: sql`now()`, error: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'running'), heldBy(run)))
    .returning({ id: jobs.id });
  return done !== undefined;
}

/** Queued jobs of the same provider that the queue takes before this one (fair-queue.ts order). */
export async function countQueuedAhead(db: AppDb, job: JobRow): Promise<number> {
  const [row] = await db
    .select({ ahead: count() })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), eq(jobs.provider, job.provider), servedBefore(job.id)));
  return Number(row?.ahead ?? 0);
}

/** The user's file, or null for a missing one and another user's alike. */
export async function findOwnFile(db: AppDb, fileId: string, userId: string): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.userId, userId)));
  return row ?? null;
}

/**
 * The median run time in seconds (start to finish) of the last `sample` jobs of this tool that
 * this provider finished well, or null with fewer than `minimum` of them: what a waiting user is
 * told to expect. Reads the newest succeeded rows through jobs_status_idx; callers cache it.
 */
export async function medianRunSeconds(
  db: AppDb,
  tool: string,
  provider: string,
  options: { sample: number; minimum: number },
): Promise<number | null> {
  const recent = db
    .select({ seconds: sql<number>`extract(epoch from ${jobs.finishedAt} - ${jobs.startedAt})`.as('seconds') })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, 'succeeded'),
        eq(jobs.tool, tool),
        eq(jobs.provider, provider),
        sql`${jobs.startedAt} is not null and ${jobs.finishedAt} is not null`,
      ),
    )
    .orderBy(desc(jobs.finishedAt))
    .limit(options.sample)
    .as('recent');
  const [row] = await db
    .select({
      runs: count(),
      median: sql<number | null>`percentile_cont(0.5) within group (order by ${recent.seconds})`,
    })
    .from(recent);
  if (!row || Number(row.runs) < options.minimum || row.median === null) return null;
  return Number(row.median);
}
