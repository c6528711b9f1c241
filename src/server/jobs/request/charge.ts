// A tool call becomes a job here, charged exactly once: the input images are written to storage,
// then ONE transaction of two statements in one round trip (decisions 025, 027, 032; on PGlite the
// second alone, as it runs one statement at a time): the user's profile locked (jobs/fair-queue.ts), and
// one statement that takes the user's place in the fair queue, debits the
// ledger (reason job, reference the job id, unique; nothing for a free preview: jobs/free-preview.ts),
// and inserts the job (queued: the row is the tool-run queue's entry, decision 037) and its input files.
// If anything fails, nothing is charged and the stored inputs are removed. When a worker slot of this
// process is idle and no job waits, the job goes in claimed for that slot and is handed to it at
// once, without the queue's take (decision 031).
import { randomUUID } from 'node:crypto';
import type { ToolId } from '../../../contract/tools';
import type { AppDb } from '../../db/client';
import { errorChain } from '../../db/connection-errors';
import type { FileStorage } from '../../storage/storage';
import type { PreparedTool } from '../../tools/definitions';
import { TooManyJobsError } from '../fair-queue';
import { chargeFor } from '../free-preview';
import { removeFiles, storeInputs } from '../job-files';
import { findJobByIdempotencyKey, insertChargedJob, type JobRow } from '../jobs-repository';
import type { JobSignals } from '../queue/job-signals';
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
  /** The request's price on `provider` (costOf); charged unless the job is a free preview there. */
  cost: number;
  provider: string;
  idempotencyKey?: string;
  requestHash: string;
};

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
  const charged = chargeFor(request.tool, request.provider, request.cost);
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
        cost: request.cost,
        charged,
        input,
        provider: request.provider,
        idempotencyKey: idempotencyKey ?? null,
        requestHash: request.requestHash,
      },
      inputFiles,
      deps.maxActiveJobsPerUser,
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
