// A tool call becomes a job here, charged exactly once, and the charge's SQL is all here: the input
// images are written to storage, then ONE transaction of two statements in one round trip
// (decisions 025, 027, 032, 046; on PGlite the second alone, as it runs one statement at a time):
// the user's profile locked, and one statement that takes the user's place in the fair queue
// (queue/fair-queue.ts), debits the balance with its ledger row (the ledger's SQL,
// ledger/ledger.ts: reason job, reference the job id; nothing for a free preview:
// pricing/prices.ts), and inserts the job (queued: the row is the tool-run queue's
// entry, decision 037) and its input files. If anything fails, nothing is charged and the stored
// inputs are removed. When a worker slot of this process is idle and no job waits, the job goes in
// claimed for that slot and is handed to it at once, without the queue's take (decision 031).
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { MAX_ACTIVE_BATCH_IMAGES } from '../../../contract/batches';
import type { ToolId } from '../../../contract/tools';
import { type AppDb, executeInOneRoundTrip, executePrepared, isTopLevelPglite } from '../../db/client';
import { errorChain } from '../../db/connection-errors';
import { jobs, profiles } from '../../db/schema';
import { balanceChangeCtes, type DbOrTx, InsufficientTokensError } from '../../ledger/ledger';
import type { CallPrice } from '../../pricing/prices';
import type { FileStorage } from '../../storage/storage';
import type { PreparedTool } from '../../tools/definitions';
import { removeFiles, storeInputs } from '../job-files';
import { activeJobsOf, type JobKind, TooManyJobsError } from '../queue/fair-queue';
import type { JobSignals } from '../queue/job-signals';
import {
  fileValues,
  findJobByIdempotencyKey,
  type JobRow,
  type NewFile,
  type TakenJob,
  toolRunsDue,
} from '../queue/jobs-repository';
import { toStoredInput } from '../stored-input';

/** What the queue carries for a tool job: only its id (the row holds the rest). */
export type ToolJobRequest = { jobId: string };

export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError';
}

/**
 * The job an earlier call with this Idempotency-Key made, or null. Throws IdempotencyConflictError
 * when the key was used for a different request.
 */
export async function earlierJobFor(
  db: AppDb,
  userId: string,
  idempotencyKey: string | undefined,
  requestHash: string,
): Promise<JobRow | null> {
  const job = idempotencyKey ? await findJobByIdempotencyKey(db, userId, idempotencyKey) : null;
  if (job && job.requestHash !== requestHash) throw new IdempotencyConflictError();
  return job;
}

/** PostgreSQL's unique_violation, also when drizzle wraps the driver's error in its own. */
function isUniqueViolation(error: unknown): boolean {
  return [...errorChain(error)].some((e) => e.code === '23505');
}

export type CreateJobInput = {
  userId: string;
  tool: ToolId;
  prepared: PreparedTool;
  /** The request's price on `provider` (pricing/prices.ts priceOf): nothing charged for a free preview there. */
  price: CallPrice;
  provider: string;
  idempotencyKey?: string;
  requestHash: string;
  /** The URL POSTed the job when it ends (its delivery row goes in with the job); none: no webhook. */
  webhookUrl?: string;
  /** The batch this job is an image of (decision 062); none: a single call. */
  batch?: BatchPlace;
};

/** An image's place in its batch: the batch, its item (from 0) and its input's file name. */
export type BatchPlace = { id: string; item: number; name: string };

/** The cap a job counts against: its owner's single calls, or their batch images (MAX_ACTIVE_BATCH_IMAGES). */
export const jobCapOf = (batch: BatchPlace | undefined | null, maxActiveJobsPerUser: number) =>
  batch ? MAX_ACTIVE_BATCH_IMAGES : maxActiveJobsPerUser;

/**
 * Charges and queues a job. Returns the job (and whether it was an earlier one, for a repeated
 * Idempotency-Key, or handed straight to a worker of this process). Throws InsufficientTokensError
 * or TooManyJobsError (nothing written, nothing stored) or IdempotencyConflictError.
 */
export async function chargeAndQueue(
  deps: {
    db: AppDb;
    storage: FileStorage;
    maxActiveJobsPerUser: number;
    signals?: JobSignals;
  },
  request: CreateJobInput,
): Promise<{ job: JobRow; reused: boolean; handedOver: boolean }> {
  const { db, storage } = deps;
  const { userId, idempotencyKey } = request;
  const jobId = randomUUID();
  const { cost, charged } = request.price;
  const { stored: input, images } = toStoredInput(request.prepared.input);
  // Input images go to storage first (the worker may be another process); their rows commit with
  // the job, and the bytes are removed again if the charge does not go through.
  const inputFiles = await storeInputs(storage, { id: jobId, userId }, images);
  // Held from here until the charge is through or failed: then it runs the job or is let go.
  const worker = deps.signals?.reserveWorker() ?? null;
  try {
    const { job, handedOver } = await insertChargedJob(
      db,
      {
        id: jobId,
        userId,
        tool: request.tool,
        cost,
        charged,
        input,
        provider: request.provider,
        idempotencyKey: idempotencyKey ?? null,
        requestHash: request.requestHash,
        webhookUrl: request.webhookUrl ?? null,
        batchId: request.batch?.id ?? null,
        batchItem: request.batch?.item ?? null,
        sourceName: request.batch?.name ?? null,
      },
      inputFiles,
      jobCapOf(request.batch, deps.maxActiveJobsPerUser),
      worker,
    );
    // After the commit: the slot runs the job, or looks for work again.
    if (handedOver) worker?.run(handedOver);
    else worker?.release();
    return { job, reused: false, handedOver: handedOver !== null };
  } catch (error) {
    worker?.release();
    await removeFiles(storage, inputFiles);
    // Two requests with one Idempotency-Key raced: the loser's transaction rolled back (on the
    // unique key, or at the cap the winner's job reached); answer with the winner.
    if (idempotencyKey && (isUniqueViolation(error) || error instanceof TooManyJobsError)) {
      const winner = await earlierJobFor(db, userId, idempotencyKey, request.requestHash);
      if (winner) return { job: winner, reused: true, handedOver: false };
    }
    throw error;
  }
}

// The charge's statement.

/** PostgreSQL's "deadlock detected". */
const DEADLOCK = '40P01';

/**
 * The queue's round, the debit and its ledger row, the job row (queued: the queue's entry) and its
 * input files in ONE statement; answers the job row. On PostgreSQL it runs after the user's profile
 * lock (lockUserQueueStatement), both in one transaction and one round trip (db/client.ts
 * executeInOneRoundTrip); on PGlite (one statement at a time) it runs alone: it sees every commit
 * before it and nothing runs beside it, so it needs no lock. At the cap or short of tokens nothing
 * is written and it throws (TooManyJobsError, InsufficientTokensError).
 *
 * `worker`: an idle worker slot of this process, held for this job. When no other job waits (the
 * queue's order stays fair), the job goes in already claimed for it, as its take would leave it, and
 * is answered as `handedOver` (with the queue's tries) for the caller to give to that slot: no take
 * statement, no wake (decision 031). Otherwise it is queued as usual.
 */
export async function insertChargedJob(
  db: DbOrTx,
  job: Pick<
    JobRow,
    'id' | 'userId' | 'tool' | 'cost' | 'charged' | 'input' | 'provider' | 'idempotencyKey' | 'requestHash'
  > &
    Partial<Pick<JobRow, 'webhookUrl' | 'batchId' | 'batchItem' | 'sourceName'>>,
  inputFiles: NewFile[],
  maxActiveJobs: number,
  worker: { workerId: string | null } | null = null,
): Promise<{ job: JobRow; handedOver: TakenJob | null }> {
  if (!Number.isInteger(job.charged) || job.charged < 0) throw new Error('a charge is a whole number of tokens');
  // The debit and its ledger row, only where the queue has a place: `balance_change` has a row when it went through.
  const debit = balanceChangeCtes(
    { userId: job.userId, delta: -job.charged, reason: 'job', reference: job.id },
    sql`exists (select 1 from queue_place)`,
  );
  const insertInputs: SQL =
    inputFiles.length === 0
      ? sql``
      : sql`, inputs as (
          insert into files (id, user_id, job_id, kind, storage_key, content_type, size, width, height)
          select * from (values ${fileValues(inputFiles)}) as v where exists (select 1 from new_job))`;
  const webhookUrl = job.webhookUrl ?? null;
  const batch = { batchId: job.batchId ?? null, batchItem: job.batchItem ?? null, sourceName: job.sourceName ?? null };
  const kind: JobKind = batch.batchId === null ? 'single' : 'batch';
  // A call with a webhook: its delivery row, due once the job ends (webhooks/deliveries/), in the same statement.
  const insertDelivery: SQL =
    webhookUrl === null ? sql`` : sql`, delivery as (insert into webhook_deliveries (job_id) select id from new_job)`;
  // A batch's image takes its place among the batch's images waiting behind it (batchOrderCtes).
  const inBatchOrder = batch.batchId !== null && batch.batchItem !== null;
  const batchOrder = inBatchOrder
    ? sql`, ${batchOrderCtes(batch.batchId as string, batch.batchItem as number)}`
    : sql``;
  const round = inBatchOrder ? sql`(select round from batch_rounds where n = 1)` : sql`queue_place.round`;
  const moveBatch: SQL = inBatchOrder
    ? sql`, batch_moved as (
          update jobs set queue_round = batch_rounds.round
          from batch_later join batch_rounds on batch_rounds.n = batch_later.n
          where jobs.id = batch_later.id and jobs.status = 'queued' and exists (select 1 from new_job))`
    : sql``;
  const charge = sql`
    with ${queuePlaceCtes(job.userId, maxActiveJobs, kind)},
    ${debit},
    hand_over as (select ${worker !== null}::boolean and not ${toolRunsDue()} as claimed)${batchOrder},
    new_job as (
      insert into jobs (id, user_id, tool, cost, charged, input, provider, idempotency_key, request_hash, webhook_url,
        batch_id, batch_item, source_name, queue_round, status, attempts, worker_id, started_at)
      select ${job.id}::uuid, ${job.userId}::text, ${job.tool}::text, ${job.cost}::int, ${job.charged}::int,
        ${JSON.stringify(job.input)}::jsonb, ${job.provider}::text, ${job.idempotencyKey}::text,
        ${job.requestHash}::text, ${webhookUrl}::text, ${batch.batchId}::uuid, ${batch.batchItem}::int,
        ${batch.sourceName}::text, ${round},
        case when hand_over.claimed then 'running' else 'queued' end, case when hand_over.claimed then 1 else 0 end,
        case when hand_over.claimed then ${worker?.workerId ?? null}::uuid end, case when hand_over.claimed then now() end
      from queue_place, balance_change, hand_over
      returning id, queue_round, created_at)${moveBatch}${insertInputs}${insertDelivery}
    select (select active from queue_counts) as active,
      (select queue_round from new_job) as round,
      (select (extract(epoch from created_at) * 1000)::float8 from new_job) as created_ms,
      (select claimed from hand_over) as claimed`;
  let rows: Record<string, unknown>[];
  if (isTopLevelPglite(db)) rows = (await executePrepared(db, charge)).rows;
  else {
    // PostgreSQL in one round trip; inside a caller's transaction (either database), in it.
    const lock = lockUserQueueStatement(job.userId);
    const inOneRoundTrip = () => executeInOneRoundTrip(db, [lock, charge]);
    const [locked, charged] = (await inOneRoundTrip().catch((error: unknown) => {
      // Two calls with one Idempotency-Key: this one holds the profile while its insert waits for the
      // worker finishing the other's job (a new version of that row under the same key), whose
      // output files count into the same profile. PostgreSQL ends one of the two; if it is this
      // charge, nothing of it was written: once more, it meets the first job's key (a unique
      // violation, answered with that job by chargeAndQueue).
      if (![...errorChain(error)].some((e) => e.code === DEADLOCK)) throw error;
      return inOneRoundTrip();
    })) ?? [await executePrepared(db, lock), await executePrepared(db, charge)];
    if (!locked?.rows.length) throw new Error(`no profile for user ${job.userId}`);
    rows = charged?.rows ?? [];
  }
  const row = rows[0] ?? {};
  if (Number(row.active ?? 0) >= maxActiveJobs) throw new TooManyJobsError(maxActiveJobs);
  if (row.round == null) throw new InsufficientTokensError(job.userId, job.charged);
  const createdAt = new Date(Number(row.created_ms));
  const claimed = row.claimed === true;
  // The row as inserted (the columns' defaults), without reading it back.
  const inserted: JobRow = {
    ...job,
    webhookUrl,
    ...batch,
    status: claimed ? 'running' : 'queued',
    providerRef: null,
    result: null,
    error: null,
    attempts: claimed ? 1 : 0,
    runAfter: null,
    queueRound: Number(row.round),
    workerId: claimed ? (worker?.workerId ?? null) : null,
    shareToken: null,
    parentJobId: null,
    createdAt,
    startedAt: claimed ? createdAt : null,
    finishedAt: null,
  };
  const handedOver: TakenJob | null = claimed ? { jobId: job.id, job: inserted, moreWaiting: false } : null;
  return { job: inserted, handedOver };
}

/**
 * The place in the queue, first half: the statement that locks the user's profile row until the
 * job's transaction ends, so one user's calls pass here one at a time and cannot pass the cap
 * together. No row: the user has no profile.
 */
function lockUserQueueStatement(userId: string): SQL {
  return sql`select ${profiles.userId} from ${profiles} where ${profiles.userId} = ${userId} for update`;
}

/**
 * Second half, CTEs for the statement that creates the job, run after the lock in the same
 * transaction (not in the lock's statement: under READ COMMITTED a statement that waited for the
 * lock would still count with the snapshot it started with, and miss the job just committed).
 * `queue_counts(active)` counts the user's jobs of `kind` queued or running (single calls or batch images); `queue_place(round)` has a row
 * only below `maxActiveJobs`: the round being served (the highest of the jobs that have started),
 * or the round after the user's last one if that is later (the fair queue's rounds,
 * queue/fair-queue.ts).
 */
function queuePlaceCtes(userId: string, maxActiveJobs: number, kind: JobKind): SQL {
  return sql`queue_counts as (
      select ${activeJobsOf(userId, kind)} as active,
        (select max(${jobs.queueRound}) from ${jobs} where ${jobs.status} <> 'queued') as serving,
        (select max(${jobs.queueRound}) from ${jobs} where ${jobs.userId} = ${userId}) as last),
    queue_place as (
      select greatest(coalesce(serving, 0), last + 1) as round from queue_counts where active < ${maxActiveJobs})`;
}

/**
 * A batch's images wait in the line in the batch's order (issue 54): they are sent two at a time, so
 * image 3 may be charged before image 2, and the line (round, then time) would run and number them
 * as they came. The new image takes the earliest round of the batch's images still waiting behind it,
 * and each of those the next of those rounds, the last the round the new image was given: the user
 * keeps the same rounds (the fair queue's share is unchanged), now in the batch's order.
 * `batch_later(id, n)`: the waiting images behind the new one, n from 2 in the batch's order;
 * `batch_rounds(round, n)`: their rounds and the new one, n from 1, earliest first. The new image
 * takes n = 1; the charge's statement moves the others (batch_moved) once the new job is in.
 */
function batchOrderCtes(batchId: string, item: number): SQL {
  return sql`batch_later as (
      select id, queue_round, row_number() over (order by batch_item) + 1 as n
      from jobs where batch_id = ${batchId}::uuid and status = 'queued' and batch_item > ${item}::int),
    batch_rounds as (
      select round, row_number() over (order by round) as n
      from (select queue_round as round from batch_later union all select round from queue_place) as rounds)`;
}
