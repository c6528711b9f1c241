// The queue's SQL on `jobs` and its `files`: take and claim, finish, queue again, the reads of the
// views and the worker. The request path, the worker and the views call these and never build a
// query on the job tables themselves, but for the charge's one statement (request/charge.ts), the
// fair queue's order (fair-queue.ts) and the sweeps' reads beside their own logic.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, getTableColumns, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import { type AppDb, executePrepared } from '../../db/client';
import { RETRY_POLICIES, withBaseSeconds } from '../../db/queue/retry-policies';
import { anyDue, claimCtes, type RowQueue, retryLater } from '../../db/queue/row-queue';
import { files, jobs } from '../../db/schema';
import type { DbOrTx } from '../../ledger/ledger';
import { servedBefore } from './fair-queue';

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
export type NewFile = typeof files.$inferInsert;
export type FileRow = typeof files.$inferSelect;

/**
 * The run of a job that may finish it: the attempt its worker claimed. A job handed back from a
 * worker presumed dead (worker/orphaned-jobs.ts) or queued again for a retry is claimed again with another
 * attempt, so the first run, should it still be going somewhere, can no longer finish it. Null:
 * whoever finds it running (the webhook, the backstop).
 */
export type JobRun = { attempt: number } | null;

// The tool-run queue is the `jobs` table itself (docs/decisions/037-tool-run-queue-in-jobs.md), one
// of the row queues of db/queue/row-queue.ts (decision 075): a job waits as `queued`, a worker takes
// the first due one in the fair queue's order and claims it (running, one more attempt, its lease)
// in one statement, and its finish is the row's last update. A claimed job has left the queue: a
// dead worker's or an expired run is handed back by the orphan sweep (worker/orphaned-jobs.ts).
const toolRunQueue: RowQueue = {
  table: jobs,
  key: jobs.id,
  attempts: jobs.attempts,
  dueAt: jobs.runAfter,
  // The fair queue's order (fair-queue.ts), read from jobs_queue_order_idx.
  order: [jobs.queueRound, jobs.createdAt, jobs.id],
  policy: RETRY_POLICIES.toolJob,
  workerId: jobs.workerId,
  status: { column: jobs.status, waiting: 'queued', claimed: 'running' },
  holdSeconds: null,
  onClaim: [[jobs.startedAt, sql`now()`]],
};

/** Runs a job gets at most (the first and two retries, as pg-boss's retryLimit 2 gave); then it fails and is refunded. */
export const TOOL_RUN_TRIES = toolRunQueue.policy.maxAttempts;
/** Whether a tool job waits and is due (other than `except`: a statement's snapshot still counts its own take as waiting). */
export const toolRunsDue = (except: SQL = sql`null`): SQL => anyDue(toolRunQueue, except);

const heldBy = (run: JobRun) => (run ? and(eq(jobs.status, 'running'), eq(jobs.attempts, run.attempt)) : undefined);

export async function findJob(db: AppDb, jobId: string): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  return row ?? null;
}

/** Whether the job's row is still there (a running job's is gone once its account is deleted). */
export async function jobExists(db: AppDb, jobId: string): Promise<boolean> {
  const rows = await db.select({ one: sql`1` }).from(jobs).where(eq(jobs.id, jobId));
  return rows.length > 0;
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

/**
 * File rows as a VALUES list (id, user_id, job_id, kind, storage_key, content_type, size, width,
 * height) for an insert inside a larger statement; typed, as VALUES inside a SELECT does not take
 * its types from the insert's columns.
 */
export function fileValues(rows: NewFile[]): SQL {
  return sql.join(
    rows.map(
      (f) =>
        sql`(${f.id ?? randomUUID()}::uuid, ${f.userId}::text, ${f.jobId ?? null}::uuid, ${f.kind}::text, ${f.storageKey}::text, ${f.contentType}::text, ${f.size}::int, ${f.width ?? null}::int, ${f.height ?? null}::int)`,
    ),
    sql`, `,
  );
}

/** A job's input files, in the order of its input. */
export function inputFilesOf(db: AppDb, jobId: string): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.jobId, jobId), eq(files.kind, 'input')))
    .orderBy(files.storageKey);
}

/** Maps a `jobs` row read as JSON (to_jsonb) to the row drizzle would answer. */
const jobColumns = Object.entries(getTableColumns(jobs));
function jobFromJson(json: Record<string, unknown>): JobRow {
  return Object.fromEntries(
    jobColumns.map(([key, column]) => {
      const value = json[column.name];
      return [key, value == null ? null : column.mapFromDriverValue(value)];
    }),
  ) as JobRow;
}

/** A job a worker took from the queue, claimed for it, and whether other jobs were due as well (so the worker looks again at once). */
export type TakenJob = {
  jobId: string;
  job: JobRow;
  moreWaiting: boolean;
};

/**
 * CTEs `next_in_queue` (the first due job in the fair queue's order: round, then the oldest; a row
 * another worker is taking is skipped) and `claimed` (that row claimed for this worker: running,
 * one more attempt, its lease), and the columns that answer them (`takenFromRow` reads them). Read
 * through jobs_queue_order_idx, which holds only queued rows: a deep queue costs no sort.
 */
function takeAndClaim(workerId: string | null): { ctes: SQL; columns: SQL } {
  return {
    ctes: claimCtes(toolRunQueue, { workerId }),
    columns: sql`(select to_jsonb(claimed) from claimed) as job,
      (select ${toolRunsDue(sql`claimed.id`)} from claimed) as more_waiting`,
  };
}

function takenFromRow(row: Record<string, unknown> | undefined): TakenJob | null {
  if (!row || row.job == null) return null;
  const json = typeof row.job === 'string' ? JSON.parse(row.job) : row.job;
  const job = jobFromJson(json as Record<string, unknown>);
  return { jobId: job.id, job, moreWaiting: row.more_waiting === true };
}

/**
 * A job whose run ended without finishing it (the run threw: a busy provider, storage that failed;
 * or its worker is gone) goes back to the queue for another try: due at once (`now`) or after the
 * retry's delay (RETRY_POLICIES.toolJob from `delaySeconds`, TOOL_RETRY_DELAY_SECONDS: doubled after
 * each next, each up to twice that at random: pg-boss's backoff), only while `run` still holds it
 * and no provider has it. False: it did not (finished, or handed back, meanwhile).
 */
export async function queueAgain(
  db: AppDb,
  jobId: string,
  run: { attempt: number },
  due: 'now' | { delaySeconds?: number },
): Promise<boolean> {
  return retryLater(
    db,
    toolRunQueue,
    { key: jobId, attempt: run.attempt },
    {
      due: due === 'now' ? 'now' : 'backoff',
      policy: withBaseSeconds(toolRunQueue.policy, due === 'now' ? undefined : due.delaySeconds),
      where: sql`${jobs.providerRef} is null`,
    },
  );
}

/**
 * Takes the next due job from the queue and claims its row for this worker (running, one more
 * attempt, its lease) in ONE statement. Null when no job is due.
 */
export async function takeNextJob(db: AppDb, workerId: string | null): Promise<TakenJob | null> {
  const { rows } = await executePrepared(db, takeStatement(workerId));
  return takenFromRow(rows[0]);
}

/** takeNextJob's one statement (its plan is tested: the first entry of the index of waiting jobs, no sort). */
export function takeStatement(workerId: string | null): SQL {
  const { ctes, columns } = takeAndClaim(workerId);
  return sql`with ${ctes} select ${columns}`;
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

/** The job's owner's balance as the finishing statement leaves it, so the waiting request need not read it. */
// Written out, not with drizzle's columns: in RETURNING drizzle drops the table names, and
// `user_id = user_id` inside the subquery would compare profiles with itself.
const ownerBalance = sql<number>`(select owner.tokens from profiles owner where owner.user_id = jobs.user_id)`;

/**
 * Marks a job failed unless it is final (or no longer held by `run`); the row and its owner's
 * balance (before any refund), or null.
 */
export async function markFailed(
  tx: DbOrTx,
  jobId: string,
  message: string,
  run: JobRun,
): Promise<{ job: JobRow; balance: number } | null> {
  const [row] = await tx
    .update(jobs)
    .set({ status: 'failed', error: message, finishedAt: sql`now()` })
    .where(and(eq(jobs.id, jobId), notInArray(jobs.status, ['succeeded', 'failed']), heldBy(run)))
    .returning({ ...getTableColumns(jobs), balance: ownerBalance });
  if (!row) return null;
  const { balance, ...job } = row;
  return { job, balance: Number(balance) };
}

/**
 * Marks a running job succeeded with its result and the provider that served it, and inserts its
 * output files, in ONE statement (the files only if the job was still held by `run`). `finished`: when it finished and its owner's balance, or
 * null if someone else finished it (or took it from `run`).
 *
 * `takeNextFor`: a worker slot that goes straight on to the next job (others are due); the same
 * statement takes and claims it as takeNextJob would (`next`), one round trip fewer per job under
 * load. Taken whether or not this finish still held its job: a run that lost its job (handed back
 * to the queue meanwhile) may take that very job again, as a new attempt.
 */
export async function markSucceeded(
  db: DbOrTx,
  job: { id: string },
  change: { result: unknown; provider: string; outputs: NewFile[] },
  { run, takeNextFor = null }: { run: JobRun; takeNextFor?: { workerId: string | null } | null },
): Promise<{ finished: { finishedAt: Date; balance: number } | null; next: TakenJob | null }> {
  const { rows } = await executePrepared(db, finishStatement(job, change, { run, takeNextFor }));
  const [row] = rows;
  const finished =
    row?.finished_ms != null ? { finishedAt: new Date(Number(row.finished_ms)), balance: Number(row.balance) } : null;
  return { finished, next: takenFromRow(row) };
}

/** markSucceeded's one statement (its plan is tested: the finished job read by its primary key). */
export function finishStatement(
  job: { id: string },
  change: { result: unknown; provider: string; outputs: NewFile[] },
  { run, takeNextFor = null }: { run: JobRun; takeNextFor?: { workerId: string | null } | null },
): SQL {
  // 'running' bound as a parameter, not written as a literal: from a literal the planner proves the
  // row is in the partial indexes of started jobs (jobs_started_round_idx) and of active ones, and a
  // generic plan made while they were small scanned one of them, every finished job, instead of
  // reading the primary key.
  const running = sql`${'running'}`;
  const held = run ? sql` and attempts = ${run.attempt}` : sql``;
  const insertOutputs =
    change.outputs.length === 0
      ? sql``
      : sql`, outputs as (
          insert into files (id, user_id, job_id, kind, storage_key, content_type, size, width, height)
          select * from (values ${fileValues(change.outputs)}) as v where exists (select 1 from done))`;
  // The job it takes cannot be the one it finishes: that one is running, not queued, in the statement's snapshot.
  const take = takeNextFor ? takeAndClaim(takeNextFor.workerId) : null;
  return sql`
    with done as (
      update jobs set status = 'succeeded', result = ${JSON.stringify(change.result)}::jsonb,
        provider = ${change.provider}, finished_at = now(), error = null
      where id = ${job.id} and status = ${running}${held}
      returning id, user_id, finished_at)${insertOutputs}${take ? sql`, ${take.ctes}` : sql``}
    select (select (extract(epoch from finished_at) * 1000)::float8 from done) as finished_ms,
      (select tokens from profiles where user_id = (select user_id from done)) as balance${take ? sql`, ${take.columns}` : sql``}`;
}

/**
 * Queued jobs of the same provider that the queue takes before this one (fair-queue.ts order),
 * counted up to `atMost`: the count reads each job it counts, from jobs_queue_order_idx.
 */
export async function countQueuedAhead(db: AppDb, job: JobRow, atMost: number): Promise<number> {
  const ahead = db
    .select({ one: sql`1` })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), eq(jobs.provider, job.provider), servedBefore(job.id)))
    .limit(atMost)
    .as('ahead');
  const [row] = await db.select({ ahead: count() }).from(ahead);
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
 * The median run time in seconds of the last `sample` jobs of this tool that this provider finished
 * well, or null with fewer than `minimum` of them: what a waiting user is told to expect. Reads the
 * newest succeeded rows from the end of jobs_succeeded_idx; callers cache it. A run is timed from its
 * start, or with `fromModel` (a provider that runs one job per model at a time) from when it got its
 * model: the finish of the same tool's run before it on its worker, when that came after its start.
 */
export async function medianRunSeconds(
  db: AppDb,
  tool: string,
  provider: string,
  options: { sample: number; minimum: number; fromModel?: boolean },
): Promise<number | null> {
  const [row] = await medianRunQuery(db, tool, provider, options.sample, options.fromModel);
  if (!row || Number(row.runs) < options.minimum || row.median === null) return null;
  return Number(row.median);
}

/**
 * When the running job `job` (an SQL alias of jobs) got its model: its start, or the latest finish
 * of a good run of its tool on its worker since (that run held the model meanwhile), read from
 * jobs_succeeded_idx. Jobs that failed meanwhile are not counted: rare, and not indexed.
 */
const gotModelAt = (job: SQL) => sql`greatest(${job}.started_at, (
  select max(before.finished_at) from jobs before
  where before.status = 'succeeded' and before.tool = ${job}.tool and before.provider = ${job}.provider
    and before.worker_id is not distinct from ${job}.worker_id
    and before.finished_at > ${job}.started_at and before.finished_at <= coalesce(${job}.finished_at, now())
    and before.id <> ${job}.id))`;

/** medianRunSeconds' statement, not yet run (its plan is tested: the end of an index, no sort). */
export function medianRunQuery(db: AppDb, tool: string, provider: string, sample: number, fromModel = false) {
  const runStart = fromModel ? gotModelAt(sql.raw('jobs')) : sql`${jobs.startedAt}`;
  const recent = db
    .select({ seconds: sql<number>`extract(epoch from ${jobs.finishedAt} - ${runStart})`.as('seconds') })
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
    .limit(sample)
    .as('recent');
  return db
    .select({
      runs: count(),
      median: sql<number | null>`percentile_cont(0.5) within group (order by ${recent.seconds})`,
    })
    .from(recent);
}

/** A job a worker holds (views/wait-estimate.ts HeldJob): seconds since it started, or since it got its model. */
export type HeldJobRow = { id: string; tool: string; workerId: string | null; heldForSeconds: number };

/**
 * The jobs of `provider` that workers hold now (not those handed to the provider to finish by
 * webhook), oldest first; `fromModel`: timed from when each got its model. Read through the
 * partial index of jobs in progress (jobs_user_active_idx), never the history.
 */
export async function heldJobs(db: AppDb, provider: string, fromModel: boolean): Promise<HeldJobRow[]> {
  const { rows } = await executePrepared(db, heldJobsQuery(provider, fromModel));
  return rows.map((row) => ({
    id: String(row.id),
    tool: String(row.tool),
    workerId: row.worker_id == null ? null : String(row.worker_id),
    heldForSeconds: Math.max(0, Number(row.held_for)),
  }));
}

/** heldJobs' statement (its plan is tested: the index of jobs in progress, the history never scanned). */
export function heldJobsQuery(provider: string, fromModel: boolean): SQL {
  const since = fromModel ? gotModelAt(sql.raw('held')) : sql.raw('held.started_at');
  return sql`select held.id, held.tool, held.worker_id, extract(epoch from now() - ${since})::float8 as held_for
    from jobs held
    where held.status = 'running' and held.provider = ${provider} and held.provider_ref is null
    order by held.started_at, held.id`;
}

/** The first `limit` queued jobs of `provider`, in the order the queue hands them out (jobs_queue_order_idx). */
export async function queuedJobsInOrder(
  db: AppDb,
  provider: string,
  limit: number,
): Promise<{ id: string; tool: string }[]> {
  return db
    .select({ id: jobs.id, tool: jobs.tool })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), eq(jobs.provider, provider)))
    .orderBy(jobs.queueRound, jobs.createdAt, jobs.id)
    .limit(limit);
}

/**
 * The user's single calls in progress (queued or running), oldest first: what a page loaded while they
 * run follows, to say when each finishes (a batch's images are followed on their batch). Read through
 * jobs_user_active_idx, never the history.
 */
export function activeJobsOfUser(db: AppDb, userId: string, limit: number): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), sql`${jobs.status} in ('queued', 'running')`, isNull(jobs.batchId)))
    .orderBy(jobs.createdAt, jobs.id)
    .limit(limit);
}
