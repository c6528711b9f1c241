// The worker side of a tool job: run the tool's provider, then finish the job exactly once:
// outputs stored and the job marked succeeded, or the job failed; what either gives back is
// jobs/refunds.ts's. A provider may answer `pending` instead (Replicate's webhook mode): the job keeps
// running with its provider_ref and is finished later by completeToolJob, from the webhook or from
// the backstop (pending-jobs.ts).
import { ANALYSIS } from '../../../contract/api-response-schemas';
import { type ToolId, toolById } from '../../../contract/tools';
import type { AppDb } from '../../db/client';
import { untilDatabaseAnswers } from '../../db/connection-errors';
import { matteOf } from '../../images/finishing/matte';
import { conditionUpload, type SourcePhoto } from '../../images/finishing/source-photo';
import { sniffFormat } from '../../images/image-input';
import type { OutputImage } from '../../images/image-types';
import type { InferenceProvider, ProviderInput, ToolResult } from '../../inference/provider';
import { ProviderError } from '../../inference/provider';
import type { Logger } from '../../log';
import type { Metrics } from '../../observability/metrics';
import type { FileStorage } from '../../storage/storage';
import { loadInputImages, removeFiles, storeOutputs } from '../job-files';
import { runModelStep } from '../model-step';
import type { FinishedJob, JobSignals } from '../queue/job-signals';
import {
  findRunningJob,
  type JobRow,
  type JobRun,
  markSucceeded,
  queueAgain,
  setProviderRef,
  type TakenJob,
  TOOL_RUN_TRIES,
} from '../queue/jobs-repository';
import { failAndRefund, refundOnSuccess, succeedAndRefund } from '../refunds';
import { finishedOutputs, sourcePhotoOfUploads } from '../result-files';
import { fromStoredInput, hasInputFiles, imagesAsked } from '../stored-input';
import { watchForDeletion } from './job-deletion-watch';

export type { JobRun } from '../queue/jobs-repository';

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
  /** Counts each job's end, its run time and its refund (GET /metrics); none: not counted. */
  metrics?: Metrics;
  /** The first retry's delay of a run that threw (TOOL_RETRY_DELAY_SECONDS; unset: the tool job's retry policy's). */
  retryDelaySeconds: number | undefined;
};

/**
 * Runs one job a worker took from the queue (tool-workers.ts). Returns normally when the job is
 * final or handed to its provider (`pending`); throws to have it tried again (a retryable provider
 * failure with tries left; tryAgainOrRefund).
 *
 * `lookWithFinish`: asked once, as the job succeeds, whether the slot goes straight on to another;
 * if so the finish also takes the next job (markSucceeded), answered here (null: none was taken).
 * Not asked when the job fails, is refunded or goes to its provider (`pending`).
 */
export async function runToolJob(
  deps: ToolJobDeps,
  taken: TakenJob,
  lookWithFinish: () => boolean = () => false,
): Promise<TakenJob | null> {
  const { db, storage, logger } = deps;
  const { jobId, job } = taken;
  const durably = durablyFor(logger, jobId);
  const run: JobRun = { attempt: job.attempts };
  const tool = toolById(job.tool as ToolId);
  let outcome: JobOutcome;
  let servedBy = job.provider;
  let source: SourcePhoto | null = null;
  const deletion = watchForDeletion(db, jobId, deps.signals);
  try {
    const provider = deps.providerFor(tool.id, job.provider);
    servedBy = provider.name;
    // A prompt-only job has no input files: no lookup.
    const images = hasInputFiles(job.input) ? await durably(() => loadInputImages(db, storage, job)) : [];
    const input = fromStoredInput(tool.id, job.input, images);
    // Every provider is handed the upload upright and untagged; its result gets the upload's profile back.
    const { image } = input as ProviderInput;
    const upload = image ? await conditionUpload(image) : null;
    source = upload?.source ?? null;
    const stopped = AbortSignal.any([AbortSignal.timeout(deps.runTimeoutMs), deletion.signal]);
    // As the job's model step asks: a photo that has the pixels runs no model, one too large is made smaller first.
    const result = await runModelStep(
      provider,
      { ...input, ...(upload ? { image: upload.image } : {}) },
      job.input,
      stopped,
    );
    if (result.kind === 'pending') {
      // The worker slot is free again; the webhook or the backstop completes the job.
      await durably(() => setProviderRef(db, jobId, result.providerRef, run));
      return null;
    }
    outcome = { result };
  } catch (error) {
    const retryable = error instanceof ProviderError && error.options.retryable === true;
    // Thrown to the worker's loop, which queues it again (tryAgainOrRefund) and logs it.
    if (retryable && job.attempts < TOOL_RUN_TRIES && !deletion.deleted()) throw error;
    outcome = { error };
  } finally {
    deletion.stop();
  }
  if (deletion.deleted()) {
    // Its row, files and owner are gone, and deletion left the ledger as it stands: nothing to finish.
    logger.info('tool job deleted with its account; its run stopped', { jobId });
    return null;
  }
  const takeNextFor = () => (lookWithFinish() ? { workerId: deps.workerId ?? null } : null);
  const { next } = await durably(() => finishJob(deps, job, outcome, run, servedBy, takeNextFor, source));
  return next;
}

/** How long a worker holding a job waits for an unreachable database before leaving the job to its expiry. */
const DATABASE_OUTAGE_WAIT_MS = 2 * 60_000;

/**
 * A database restart must not strand a job that a worker holds: its writes wait for the database
 * (a job left to its expiry would sit "running" for minutes, then run again).
 */
function durablyFor(logger: Logger, jobId: string) {
  return <T>(write: () => Promise<T>) =>
    untilDatabaseAnswers(write, {
      maxWaitMs: DATABASE_OUTAGE_WAIT_MS,
      onWait: (error) => logger.warn('database unreachable; the job waits for it', { jobId, error }),
    });
}

/**
 * A run that ended without finishing its job (it threw: a busy provider, output storage that
 * failed; or its worker is gone, `due` now): the job is queued again for its next try, or, its
 * tries used up, failed and refunded with the tool's own message (what pg-boss's dead letter did
 * before decision 037). Nothing when the job is no longer in that run (finished, or handed back,
 * meanwhile).
 */
export async function tryAgainOrRefund(
  deps: Pick<ToolJobDeps, 'db' | 'logger' | 'signals' | 'metrics'>,
  job: Pick<JobRow, 'id' | 'tool' | 'attempts'>,
  due: 'now' | { delaySeconds?: number },
): Promise<'retried' | 'refunded' | null> {
  const run = { attempt: job.attempts };
  // The worker that ran it waits out a database outage; the sweep ('now') simply tries next round.
  const durably = due === 'now' ? <T>(write: () => Promise<T>) => write() : durablyFor(deps.logger, job.id);
  if (job.attempts < TOOL_RUN_TRIES)
    return (await durably(() => queueAgain(deps.db, job.id, run, due))) ? 'retried' : null;
  const message = toolById(job.tool as ToolId).failureMessage;
  const refunded = await durably(() => failAndRefund(deps.db, job.id, message, run));
  if (!refunded) return null;
  deps.logger.warn('tool job refunded after its last try', { jobId: job.id });
  deps.signals?.jobFinished(job.id, refunded);
  countJobEnd(deps.metrics, refunded, refunded.job.charged);
  return 'refunded';
}

/** How a job ended at its provider: a result, or the error it failed with. */
export type JobOutcome = { result: ToolResult } | { error: unknown };

/** How a pending job ended: the provider's terminal payload (webhook or check), or a failure decided here. */
export type PendingOutcome = { payload: unknown } | { error: unknown };

/** What finishing a job needs: the worker's dependencies but the run timeout. */
export type JobCompletionDeps = Pick<ToolJobDeps, 'db' | 'storage' | 'logger' | 'signals' | 'providerFor' | 'metrics'>;

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
  const job = await findRunningJob(deps.db, jobId);
  if (!job) return false;
  const outcomeOfJob = 'payload' in outcome ? await completedByProvider(deps, job, outcome.payload) : outcome;
  return (await finishJob(deps, job, outcomeOfJob)).done;
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

/** A worker slot that goes on to its next job with this finish (markSucceeded's `takeNextFor`), asked once; null: it does not. */
type TakeNextFor = () => { workerId: string | null } | null;

/**
 * The one way a running job ends: succeeded with its outputs, or failed and refunded; then
 * signalled. `servedBy`: the provider that answered (the recorded one for a pending job's answer).
 * `done`: whether this call finished the job; `next`: the job taken with a success's finish.
 */
async function finishJob(
  deps: JobCompletionDeps,
  job: JobRow,
  outcome: JobOutcome,
  run: JobRun = null,
  servedBy = job.provider,
  takeNextFor: TakeNextFor = () => null,
  source?: SourcePhoto | null,
): Promise<{ done: boolean; next: TakenJob | null }> {
  const tool = toolById(job.tool as ToolId);
  const checked = await asFiles(deps, job, usableOutcome(tool.id, outcome), source);
  let done: FinishedJob | null;
  let next: TakenJob | null = null;
  let refunded = 0;
  if ('result' in checked) {
    ({ done, next, refunded } = await storeResult(deps, job, checked, run, servedBy, takeNextFor));
  } else {
    const { error } = checked;
    deps.logger.warn('tool job failed', { jobId: job.id, tool: tool.id, error });
    const message =
      error instanceof ProviderError ? (error.options.userMessage ?? tool.failureMessage) : tool.failureMessage;
    done = await failAndRefund(deps.db, job.id, message, run);
    refunded = done?.job.charged ?? 0;
  }
  if (done) {
    deps.signals?.jobFinished(job.id, done);
    countJobEnd(deps.metrics, done, refunded);
  } else if (run)
    deps.logger.warn('this run no longer holds its job (handed back, or final); its outcome is dropped', {
      jobId: job.id,
    });
  return { done: done !== null, next };
}

/**
 * Stores a result and marks the job succeeded, once: `done` null if it was no longer running (in
 * `run`). The common case (nothing to refund) is one statement, which also takes the slot's next
 * job when it goes on (`next`); a refund shares a transaction with it and takes nothing.
 */
async function storeResult(
  deps: JobCompletionDeps,
  job: JobRow,
  { result, mattes = [] }: { result: FinalResult; mattes?: OutputImage[] },
  run: JobRun,
  servedBy: string,
  takeNextFor: TakeNextFor,
): Promise<{ done: FinishedJob | null; next: TakenJob | null; refunded: number }> {
  const outputs = result.kind === 'images' ? await storeOutputs(deps.storage, job, result.images) : [];
  // Kept with the job, not in its result: read by the refine editor only (GET /api/creations/:id/mask).
  const matteFiles = await storeOutputs(deps.storage, job, mattes, 'matte');
  const stored =
    result.kind === 'images'
      ? { files: outputs.map((r) => r.id) }
      : { keywords: result.keywords, colors: result.colors };
  const change = { result: stored, provider: servedBy, outputs: [...outputs, ...matteFiles] };
  const refund = refundOnSuccess(job, result, servedBy);
  const { finished, next } = refund
    ? {
        finished: await succeedAndRefund(
          deps.db,
          refund,
          async (tx) => (await markSucceeded(tx, job, change, { run })).finished,
        ),
        next: null,
      }
    : await markSucceeded(deps.db, job, change, { run, takeNextFor: takeNextFor() });
  if (!finished) {
    // Another run's result stands, and a worker's run has keys of its own (its attempt): remove them.
    if (run) await removeFiles(deps.storage, change.outputs);
    return { done: null, next, refunded: 0 };
  }
  const { finishedAt, balance } = finished;
  const done: FinishedJob = {
    job: { ...job, status: 'succeeded', result: stored, provider: servedBy, error: null, finishedAt },
    balance,
  };
  return { done, next, refunded: refund?.delta ?? 0 };
}

/**
 * A job's end, counted: its outcome by tool and the provider that served it, its run from its start
 * (the claim) to its end, and the tokens it gave back.
 */
function countJobEnd(metrics: Metrics | undefined, { job }: FinishedJob, refunded: number) {
  if (!metrics) return;
  const ended = job.finishedAt ? new Date(job.finishedAt).getTime() : Date.now();
  const runSeconds = job.startedAt ? Math.max(0, ended - new Date(job.startedAt).getTime()) / 1000 : null;
  const outcome = job.status === 'succeeded' ? 'succeeded' : 'failed';
  metrics.toolJobFinished({ tool: job.tool, provider: job.provider, outcome, runSeconds });
  metrics.tokens('refunded', refunded);
}

/**
 * The result's images as the files the call asked for (result-files.ts). `source` undefined: the
 * run did not read the upload (a provider's later answer), so it is read here. A file that cannot
 * be made fails the job (refunded), as a model's failure does. A refinable tool's model cut-out
 * also gives its matte, kept for the refine editor (decision 082).
 */
async function asFiles(
  deps: JobCompletionDeps,
  job: JobRow,
  checked: { result: FinalResult } | { error: unknown },
  source: SourcePhoto | null | undefined,
): Promise<{ result: FinalResult; mattes?: OutputImage[] } | { error: unknown }> {
  if (!('result' in checked) || checked.result.kind !== 'images') return checked;
  const uploads = async () =>
    sourcePhotoOfUploads(hasInputFiles(job.input) ? await loadInputImages(deps.db, deps.storage, job) : []);
  try {
    const images = await finishedOutputs(job.input, checked.result.images, source === undefined ? uploads : source);
    const [modelCutOut] = checked.result.images;
    const mattes = toolById(job.tool as ToolId).refine && modelCutOut ? [await matteOf(modelCutOut.bytes)] : [];
    return { result: { kind: 'images', images }, mattes };
  } catch (error) {
    const failure = new ProviderError(`${job.tool}: the result's file could not be made`);
    failure.cause = error;
    return { error: failure };
  }
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
  } else if (!ANALYSIS.safeParse(result).success) {
    // The shape the API declares (keywords scored 0-1, colours with a hex, a name and a share): what a page can show.
    return { error: new ProviderError(`${tool}: provider answered a malformed analysis`) };
  }
  return { result };
}
