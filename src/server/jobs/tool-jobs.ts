// Tool jobs: a tool call is charged exactly once, runs once, keeps its outputs, and is refunded if
// it fails. Creation debits the balance, inserts the job and enqueues it in ONE transaction; the
// worker runs the provider and either stores the outputs and marks the job succeeded, or marks it
// failed and refunds in one transaction. The ledger's unique (reason, reference) makes both the
// debit (reason job) and the refund (reason refund) happen at most once per job id. A provider may
// answer `pending` instead (Replicate's webhook mode): the job keeps running with its provider_ref
// and is finished later by completeToolJob, from the webhook or from the backstop (pending-jobs.ts).
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { JobView } from '../../contract/tool-responses';
import { type ToolId, toolById } from '../../contract/tools';
import { type AppDb, sqlExecutorOf } from '../db/client';
import { errorChain, untilDatabaseAnswers } from '../db/connection-errors';
import { files, jobs } from '../db/schema';
import { sniffFormat } from '../images/image-input';
import type { ImageInput, InferenceProvider, OutputImage, ToolInput, ToolResult } from '../inference/provider';
import { ProviderError } from '../inference/provider';
import { applyLedgerEntry } from '../ledger/ledger';
import type { Logger } from '../log';
import type { FileStorage } from '../storage/storage';
import type { PreparedTool } from '../tools/definitions';
import { claimQueueRound, queuePriority, servedBefore, TooManyJobsError } from './fair-queue';
import type { JobSignals } from './job-signals';
import { QUEUE_NAMES, type Queue } from './queue';
import { fromStoredInput, imagesAsked, toStoredInput } from './stored-input';

export type ToolJobRequest = { jobId: string };

export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError';
}

type JobRow = typeof jobs.$inferSelect;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

async function existingForKey(db: AppDb, userId: string, key: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), eq(jobs.idempotencyKey, key)));
  return row ?? null;
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
  const job = idempotencyKey ? await existingForKey(db, userId, idempotencyKey) : null;
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
  cost: number;
  provider: string;
  idempotencyKey?: string;
  requestHash: string;
};

/**
 * Charges and queues a job. Returns the job (and whether it was an earlier one, for a repeated
 * Idempotency-Key). Throws InsufficientTokensError or TooManyJobsError (nothing written, nothing
 * stored) or IdempotencyConflictError.
 */
export async function createToolJob(
  deps: { db: AppDb; queue: Queue; storage: FileStorage; maxActiveJobsPerUser: number },
  request: CreateJobInput,
): Promise<{ job: JobRow; reused: boolean }> {
  const { db, storage } = deps;
  const { userId, idempotencyKey } = request;
  // The route has already answered a key it knows (before the balance check); here only a race
  // with a concurrent request under the same key is left to settle (below).
  const earlier = () => earlierJobFor(db, userId, idempotencyKey, request.requestHash);
  const jobId = randomUUID();
  const { stored: storedInput, images } = toStoredInput(request.prepared.input);
  // Input images go to storage first (the worker may be another process); their rows commit with
  // the job, and the bytes are removed again if the charge does not go through.
  const stored = await Promise.all(
    images.map(async (image, index) => {
      const key = `inputs/${jobId}/${index}.${EXTENSIONS[image.mime]}`;
      await storage.put(key, image.bytes, image.mime);
      return { key, image };
    }),
  );
  try {
    const job = await db.transaction(async (tx) => {
      const round = await claimQueueRound(tx, userId, deps.maxActiveJobsPerUser);
      await applyLedgerEntry(tx, { userId, delta: -request.cost, reason: 'job', reference: jobId });
      const [row] = await tx
        .insert(jobs)
        .values({
          id: jobId,
          userId,
          tool: request.tool,
          cost: request.cost,
          input: storedInput,
          provider: request.provider,
          idempotencyKey: idempotencyKey ?? null,
          requestHash: request.requestHash,
          queueRound: round,
        })
        .returning();
      if (stored.length > 0) {
        await tx.insert(files).values(
          stored.map(({ key, image }) => ({
            userId,
            jobId,
            kind: 'input' as const,
            storageKey: key,
            contentType: image.mime,
            size: image.bytes.length,
            width: image.width,
            height: image.height,
          })),
        );
      }
      // The queue's job has the row's id: pg-boss's order is then exactly the one queuePosition
      // counts in (it is sent in the row's transaction), and a crashed worker's job can be found
      // and handed back (orphaned-jobs.ts).
      await deps.queue.send(QUEUE_NAMES.toolRun, { jobId } satisfies ToolJobRequest, {
        id: jobId,
        priority: queuePriority(round),
        db: { executeSql: sqlExecutorOf(tx) },
      });
      return row as JobRow;
    });
    return { job, reused: false };
  } catch (error) {
    await Promise.all(stored.map(({ key }) => storage.delete(key).catch(() => {})));
    // Two requests with one Idempotency-Key raced: the loser's transaction rolled back (on the
    // unique key, or at the cap the winner's job reached); answer with the winner.
    if (idempotencyKey && (isUniqueViolation(error) || error instanceof TooManyJobsError)) {
      const winner = await earlier();
      if (winner) return { job: winner, reused: true };
    }
    throw error;
  }
}

/** Rebuilds the provider input from the job row and its stored input images. */
async function loadInput(db: AppDb, storage: FileStorage, job: JobRow): Promise<ToolInput> {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.jobId, job.id), eq(files.kind, 'input')))
    .orderBy(files.storageKey);
  const images: ImageInput[] = [];
  for (const row of rows) {
    const bytes = await storage.get(row.storageKey);
    if (!bytes) throw new Error(`input file ${row.storageKey} of job ${job.id} is missing`);
    images.push({ bytes, mime: row.contentType as ImageInput['mime'], width: row.width ?? 0, height: row.height ?? 0 });
  }
  return fromStoredInput(job.tool as ToolId, job.input, images);
}

async function storeOutputs(storage: FileStorage, job: JobRow, images: OutputImage[]) {
  const rows = await Promise.all(
    images.map(async (image, index) => {
      // Per attempt: a run that lost its job (handed back) must not overwrite the later run's files.
      const key = `outputs/${job.id}/${job.attempts}-${index}.${EXTENSIONS[image.contentType] ?? 'bin'}`;
      await storage.put(key, image.bytes, image.contentType);
      return {
        // Chosen here so that the job can be marked succeeded before its file rows are inserted.
        id: randomUUID(),
        userId: job.userId,
        jobId: job.id,
        kind: 'output' as const,
        storageKey: key,
        contentType: image.contentType,
        size: image.bytes.length,
      };
    }),
  );
  return rows;
}

/**
 * The run of a job that may finish it: the attempt its worker claimed. A job handed back from a
 * worker presumed dead (orphaned-jobs.ts) is claimed again with another attempt, so the first run,
 * should it still be going somewhere, can no longer finish it. Null: whoever finds it running.
 */
export type JobRun = { attempt: number } | null;

const heldBy = (run: JobRun) => (run ? and(eq(jobs.status, 'running'), eq(jobs.attempts, run.attempt)) : undefined);

/** Marks a job failed and refunds it, once: a job already final (or taken from `run`) is left as it is. */
export async function failAndRefund(db: AppDb, jobId: string, message: string, run: JobRun = null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [failed] = await tx
      .update(jobs)
      .set({ status: 'failed', error: message, finishedAt: sql`now()` })
      .where(and(eq(jobs.id, jobId), notInArray(jobs.status, ['succeeded', 'failed']), heldBy(run)))
      .returning();
    if (!failed) return false;
    await applyLedgerEntry(tx, { userId: failed.userId, delta: failed.cost, reason: 'refund', reference: jobId });
    return true;
  });
}

export type ToolJobDeps = {
  db: AppDb;
  /** This process's worker lease (worker-leases.ts), recorded on the jobs it claims. */
  workerId?: string;
  signals?: JobSignals;
  storage: FileStorage;
  logger: Logger;
  providerFor(tool: ToolId, recorded: string): InferenceProvider;
  /** How long one provider call may take (the job's expiry is the backstop). */
  runTimeoutMs: number;
};

/**
 * Runs one job (the queue's handler). Returns normally when the job is final or handed to its
 * provider (`pending`); throws to have the queue retry it (a retryable provider failure with tries left).
 */
export async function runToolJob(deps: ToolJobDeps, jobId: string, retriesLeft: boolean): Promise<void> {
  const { db, storage, logger } = deps;
  // A database restart must not strand a job that a worker holds: its writes wait for the
  // database (a job left to pg-boss's expiry would sit "running" for minutes, then run again).
  const durably = <T>(write: () => Promise<T>) =>
    untilDatabaseAnswers(write, {
      maxWaitMs: DATABASE_OUTAGE_WAIT_MS,
      onWait: (error) => logger.warn('database unreachable; the job waits for it', { jobId, error }),
    });
  const [job] = await durably(() =>
    db
      .update(jobs)
      .set({
        status: 'running',
        startedAt: sql`now()`,
        attempts: sql`${jobs.attempts} + 1`,
        workerId: deps.workerId ?? null,
      })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ['queued', 'running']), isNull(jobs.providerRef)))
      .returning(),
  );
  // Already final, or already with its provider, which calls back (a duplicate delivery): nothing to do.
  if (!job) return;
  const run: JobRun = { attempt: job.attempts };
  const tool = toolById(job.tool as ToolId);
  let outcome: JobOutcome;
  try {
    const provider = deps.providerFor(tool.id, job.provider);
    const input = await durably(() => loadInput(db, storage, job));
    const result = await provider.run(input, AbortSignal.timeout(deps.runTimeoutMs));
    if (result.kind === 'pending') {
      // The worker slot is free again; the webhook or the backstop completes the job.
      await durably(() =>
        db
          .update(jobs)
          .set({ providerRef: result.providerRef })
          .where(and(eq(jobs.id, jobId), heldBy(run))),
      );
      return;
    }
    outcome = { result };
  } catch (error) {
    const retryable = error instanceof ProviderError && error.options.retryable === true;
    if (retryable && retriesLeft) {
      logger.warn('tool job failed; the queue tries it again', { jobId, tool: tool.id, error });
      throw error;
    }
    outcome = { error };
  }
  await durably(() => finishJob(deps, job, outcome, run));
}

/** How long a worker holding a job waits for an unreachable database before leaving the job to its expiry. */
const DATABASE_OUTAGE_WAIT_MS = 2 * 60_000;

/** How a job ended at its provider: a result, or the error it failed with. */
export type JobOutcome = { result: ToolResult } | { error: unknown };

/** How a pending job ended: the provider's terminal payload (webhook or check), or a failure decided here. */
export type PendingOutcome = { payload: unknown } | { error: unknown };

/** What finishing a job needs: the worker's dependencies but the run timeout. */
export type JobCompletionDeps = Pick<ToolJobDeps, 'db' | 'storage' | 'logger' | 'signals' | 'providerFor'>;

/**
 * Finishes a job its provider answered `pending` for (the webhook's and the backstop's way in):
 * stores the outputs and marks it succeeded, or fails and refunds it. A job that is not running
 * (already final) is left alone; returns whether this call finished the job.
 */
export async function completeToolJob(
  deps: JobCompletionDeps,
  jobId: string,
  outcome: PendingOutcome,
): Promise<boolean> {
  const [job] = await deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'running')));
  if (!job) return false;
  return finishJob(deps, job, 'payload' in outcome ? await completedByProvider(deps, job, outcome.payload) : outcome);
}

async function completedByProvider(deps: JobCompletionDeps, job: JobRow, payload: unknown): Promise<JobOutcome> {
  try {
    const provider = deps.providerFor(job.tool as ToolId, job.provider);
    if (!provider.complete) throw new Error(`provider ${provider.name} cannot complete a pending job`);
    return { result: await provider.complete(payload, imagesAsked(job.input)) };
  } catch (error) {
    return { error };
  }
}

type FinalResult = Exclude<ToolResult, { kind: 'pending' }>;

/** The one way a running job ends: succeeded with its outputs, or failed and refunded; then signalled. */
async function finishJob(
  deps: JobCompletionDeps,
  job: JobRow,
  outcome: JobOutcome,
  run: JobRun = null,
): Promise<boolean> {
  const tool = toolById(job.tool as ToolId);
  const checked = usableOutcome(tool.id, outcome);
  let done: boolean;
  if ('result' in checked) {
    done = await storeResult(deps, job, checked.result, run);
  } else {
    const { error } = checked;
    deps.logger.warn('tool job failed', { jobId: job.id, tool: tool.id, error });
    const message =
      error instanceof ProviderError ? (error.options.userMessage ?? tool.failureMessage) : tool.failureMessage;
    done = await failAndRefund(deps.db, job.id, message, run);
  }
  if (done) deps.signals?.jobFinished(job.id);
  else if (run)
    deps.logger.warn('this run no longer holds its job (handed back, or final); its outcome is dropped', {
      jobId: job.id,
    });
  return done;
}

/** Stores a result and marks the job succeeded, once: false if it was no longer running (in `run`). */
async function storeResult(deps: JobCompletionDeps, job: JobRow, result: FinalResult, run: JobRun): Promise<boolean> {
  const tool = toolById(job.tool as ToolId);
  const outputRows = result.kind === 'images' ? await storeOutputs(deps.storage, job, result.images) : [];
  const succeeded = await deps.db.transaction(async (tx) => {
    const stored =
      result.kind === 'images'
        ? { files: outputRows.map((r) => r.id) }
        : { keywords: result.keywords, colors: result.colors };
    const [done] = await tx
      .update(jobs)
      .set({ status: 'succeeded', result: stored, finishedAt: sql`now()`, error: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), heldBy(run)))
      .returning({ id: jobs.id });
    // Someone else finished it first (a duplicate delivery, the webhook racing the backstop).
    if (!done) return false;
    if (outputRows.length) await tx.insert(files).values(outputRows);
    // Fewer images than paid for (a model's safety filter may drop some): refund the missing ones.
    const asked = imagesAsked(job.input);
    if (result.kind === 'images' && tool.costPer === 'image' && result.images.length < asked) {
      const unit = job.cost / asked;
      await applyLedgerEntry(tx, {
        userId: job.userId,
        delta: unit * (asked - result.images.length),
        reason: 'refund',
        reference: `partial:${job.id}`,
        note: `${asked - result.images.length} of ${asked} images not delivered`,
      });
    }
    return true;
  });
  // Another run's result stands, and a worker's run has keys of its own (its attempt): remove them.
  if (!succeeded && run) await Promise.all(outputRows.map((r) => deps.storage.delete(r.storageKey).catch(() => {})));
  return succeeded;
}

/** A provider that answers with nothing usable has failed (and the job is refunded). */
function usableOutcome(tool: ToolId, outcome: JobOutcome): { result: FinalResult } | { error: unknown } {
  if ('error' in outcome) return outcome;
  const { result } = outcome;
  const expected = toolById(tool).response === 'analysis' ? 'analysis' : 'images';
  if (result.kind === 'pending' || result.kind !== expected)
    return { error: new ProviderError(`${tool}: provider answered ${result.kind}, expected ${expected}`) };
  if (result.kind === 'images') {
    if (result.images.length === 0) return { error: new ProviderError(`${tool}: provider returned no image`) };
    // Outputs are served from our origin with their stated type: bytes that are not that image
    // (an error page, a truncated download) make a failed job, not a file for the user.
    const bad = result.images.findIndex((image) => sniffFormat(image.bytes) !== image.contentType);
    if (bad >= 0) return { error: new ProviderError(`${tool}: output ${bad} is not the image its type claims`) };
  } else if (!isWellFormedAnalysis(result)) {
    return { error: new ProviderError(`${tool}: provider answered a malformed analysis`) };
  }
  return { result };
}

/** Keywords scored 0-1 and colours with a hex, a name and a share: what the page can show. */
function isWellFormedAnalysis(result: { keywords: unknown; colors: unknown }): boolean {
  const keywords = Array.isArray(result.keywords) ? (result.keywords as Record<string, unknown>[]) : null;
  const colors = Array.isArray(result.colors) ? (result.colors as Record<string, unknown>[]) : null;
  return (
    keywords !== null &&
    colors !== null &&
    keywords.every(
      (k) => typeof k?.keyword === 'string' && typeof k.score === 'number' && k.score >= 0 && k.score <= 1,
    ) &&
    colors.every(
      (c) =>
        typeof c?.hex === 'string' &&
        /^#[0-9a-f]{6}$/i.test(c.hex) &&
        typeof c.name === 'string' &&
        typeof c.percentage === 'number',
    )
  );
}

export async function registerToolWorkers(
  queue: Queue,
  deps: ToolJobDeps,
  { pollingIntervalSeconds, concurrency }: { pollingIntervalSeconds: number; concurrency: number },
) {
  // `concurrency` jobs at a time per worker process (WORKER_CONCURRENCY): one pg-boss worker each.
  for (let i = 0; i < concurrency; i++) {
    const workerId = await queue.work<ToolJobRequest>(
      QUEUE_NAMES.toolRun,
      { pollingIntervalSeconds, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        await runToolJob(deps, job.data.jobId, job.retryCount < job.retryLimit);
      },
    );
    deps.signals?.onQueued(() => queue.notifyWorker(workerId));
  }
  // Jobs that used up their tries, or expired because a worker died mid-job: refund them.
  await queue.work<ToolJobRequest>(QUEUE_NAMES.toolRunDead, { pollingIntervalSeconds }, async ([job]) => {
    if (!job) return;
    const [row] = await deps.db.select({ tool: jobs.tool }).from(jobs).where(eq(jobs.id, job.data.jobId));
    if (!row) return;
    if (await failAndRefund(deps.db, job.data.jobId, toolById(row.tool as ToolId).failureMessage)) {
      deps.logger.warn('tool job refunded after its last try', { jobId: job.data.jobId });
      deps.signals?.jobFinished(job.data.jobId);
    }
  });
}

// The API's job view is the contract's: the web reads the same type.
export type { JobView };

export const fileUrl = (id: string) => `/api/files/${id}`;

export function viewJob(job: JobRow): JobView {
  const result = (job.result ?? {}) as { files?: string[]; keywords?: JobView['keywords']; colors?: JobView['colors'] };
  return {
    id: job.id,
    tool: job.tool as ToolId,
    status: job.status,
    cost: job.cost,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.error,
    output: result.files ? result.files.map(fileUrl) : null,
    keywords: result.keywords ?? null,
    colors: result.colors ?? null,
  };
}

/**
 * Where a queued job stands: 1 + the queued jobs of the same provider that the queue takes before it
 * (round by round, oldest first within a round: fair-queue.ts). Null once it runs or has finished.
 */
export async function queuePosition(db: AppDb, job: JobRow): Promise<number | null> {
  if (job.status !== 'queued') return null;
  const [row] = await db
    .select({ ahead: count() })
    .from(jobs)
    .where(and(eq(jobs.status, 'queued'), eq(jobs.provider, job.provider), servedBefore(job.id)));
  return 1 + Number(row?.ahead ?? 0);
}

/**
 * Waits until the job is final or `timeoutMs` passes (a disconnecting client loses nothing): woken
 * at once by a worker in this process, else re-reading the job with a growing delay.
 */
export async function waitForJob(db: AppDb, jobId: string, timeoutMs: number, signals?: JobSignals): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  let delay = 100;
  for (;;) {
    const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
    if (!job) throw new Error(`job ${jobId} vanished`);
    const left = deadline - Date.now();
    if (job.status === 'succeeded' || job.status === 'failed' || left <= 0) return job;
    const pause = Math.min(delay, left);
    await (signals ? signals.untilFinished(jobId, pause) : new Promise((r) => setTimeout(r, pause)));
    delay = Math.min(delay * 2, 1000);
  }
}
