// The money and the rules of one tool call, without HTTP: every check the spec's client makes is
// made here too, cheap ones before costly ones, and nothing is charged unless all pass. In order:
// the body's userId is the caller (403), not suspended (fraud before dispute, 403), verified (403),
// the Idempotency-Key (400; a key already used answers its earlier job, or 422 for another body),
// valid input (400/413), enough tokens (402), room in the user's share of the queue (429); then
// the costly checks, off the event loop: every image decoded in full (400 if damaged) and the
// explicit-content check (400); what the serving engine can foresee it will refuse (Fix a Face: no
// face, 422); then the charge and the queue (jobs/request/charge.ts).
import { createHash } from 'node:crypto';
import { BATCH_MESSAGES } from '../../../contract/batches';
import { isStorableText, unstorableTextError } from '../../../contract/text';
import { TOOL_MESSAGES, type ToolDefinition } from '../../../contract/tools';
import { webhookUrlRefusal } from '../../../contract/webhooks';
import { STORAGE_QUOTA_REACHED } from '../../creations/usage';
import type { AppDb } from '../../db/client';
import { inspectImages } from '../../images/image-decode';
import { InputError } from '../../images/image-input';
import { EXPLICIT_IMAGE_MESSAGE, type ImageModeration } from '../../images/moderation/image-moderation';
import { type InferenceProvider, ProviderError } from '../../inference/provider';
import type { InferenceRouter } from '../../inference/routing';
import { balanceOf, InsufficientTokensError } from '../../ledger/ledger';
import type { Logger } from '../../log';
import type { Metrics } from '../../observability/metrics';
import { priceOf } from '../../pricing/prices';
import type { ProfileWithStorage } from '../../profiles/profiles';
import type { FileStorage } from '../../storage/storage';
import { type PreparedTool, prepareTool } from '../../tools/definitions';
import { hasRoomForJob, TooManyJobsError } from '../queue/fair-queue';
import type { JobSignals } from '../queue/job-signals';
import { type BatchPlace, chargeAndQueue, earlierJobFor, IdempotencyConflictError, jobCapOf } from './charge';
import { withStoredImages } from './stored-images';

const MAX_IDEMPOTENCY_KEY = 200;
/** A provider's precheck that takes longer (an engine busy starting or loading) lets the call go on. */
const PRECHECK_TIMEOUT_MS = 20_000;
/** When a user at the job cap may try again: jobs take seconds to a minute. */
const TOO_MANY_JOBS_RETRY_SECONDS = 15;

export type ToolCallServiceDeps = {
  db: AppDb;
  storage: FileStorage;
  inference: InferenceRouter;
  moderation: ImageModeration;
  logger: Logger;
  maxActiveJobsPerUser: number;
  /** Bytes of stored images one user may have (STORAGE_QUOTA_MB); at it, calls are refused. */
  storageQuotaBytes: number;
  /** This process's job signals: an idle worker slot here is handed the job at once (charge.ts). */
  signals?: JobSignals;
  /** Production takes https webhook URLs to public hosts only (contract/webhooks.ts webhookUrlRefusal). */
  webhooks: { production: boolean };
  /** Counts the tokens charged (GET /metrics); none: not counted. */
  metrics?: Metrics;
};

export type ToolCallRequest = {
  user: { id: string; emailVerified: boolean };
  /** The user's profile and storage used, read with the call's count (tools/tool-call-limit.ts); null: none. */
  caller: ProfileWithStorage | null;
  tool: ToolDefinition;
  /** The parsed JSON object, and the text it came from (hashed for the Idempotency-Key). */
  body: Record<string, unknown>;
  rawBody: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * The image's place in a batch (batches/, decision 062): the job counts against the batch images'
   * cap, and the place is its Idempotency-Key, so an item sent again answers the job it made.
   */
  batch?: BatchPlace;
};

/** The Idempotency-Key of a batch's item: each place in a batch makes one job. */
export const batchItemKey = (batch: BatchPlace) => `batch:${batch.id}:${batch.item}`;

/** A refusal (nothing charged, nothing stored) or the call's job: a new one, or the key's earlier one. */
export type ToolCallOutcome =
  | {
      kind: 'refused';
      status: 400 | 401 | 402 | 403 | 409 | 413 | 422 | 429;
      error: string;
      balance?: number;
      retryAfterSeconds?: number;
    }
  | { kind: 'job'; jobId: string; isNew: boolean; handedOver: boolean };

export type Refusal = Extract<ToolCallOutcome, { kind: 'refused' }>;
const refuse = (status: Refusal['status'], error: string, extra: Partial<Refusal> = {}): Refusal => ({
  kind: 'refused',
  status,
  error,
  ...extra,
});
const tooManyJobs = (limit: number, batch: BatchPlace | undefined) =>
  refuse(429, batch ? BATCH_MESSAGES.tooManyImages(limit) : TOOL_MESSAGES.tooManyJobs(limit), {
    retryAfterSeconds: TOO_MANY_JOBS_RETRY_SECONDS,
  });

export async function callTool(deps: ToolCallServiceDeps, request: ToolCallRequest): Promise<ToolCallOutcome> {
  const { db } = deps;
  const { user, tool, body, caller: profile, batch } = request;
  const idempotencyKey = batch ? batchItemKey(batch) : request.idempotencyKey;
  const cap = jobCapOf(batch, deps.maxActiveJobsPerUser);
  if (body.userId !== undefined && body.userId !== user.id) return refuse(403, TOOL_MESSAGES.wrongUser);
  const standing = standingRefusal(user, profile);
  if (standing || !profile) return standing ?? refuse(401, TOOL_MESSAGES.signInRequired);

  if (idempotencyKey && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
    return refuse(400, `Idempotency-Key: must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  // Node's HTTP parser refuses control characters in headers; another front (a test's in-process call) may not.
  if (idempotencyKey && !isStorableText(idempotencyKey)) return refuse(400, unstorableTextError('Idempotency-Key'));
  const requestHash = createHash('sha256').update(`${tool.id}\n${request.rawBody}`).digest('hex');
  try {
    // A repeated call answers with the job the first one made, whatever the balance is now.
    const earlier = await earlierJobFor(db, user.id, idempotencyKey, requestHash);
    if (earlier) return { kind: 'job', jobId: earlier.id, isNew: false, handedOver: false };

    const prepared = prepareTool(tool.id, await withStoredImages(deps, user.id, body));
    // The tool's schema checked its shape; production's rules on the host are the server's (400, nothing charged).
    const webhookUrl = typeof body.webhook === 'string' ? body.webhook : undefined;
    const webhookRefusal = webhookUrl === undefined ? null : webhookUrlRefusal(webhookUrl, deps.webhooks);
    if (webhookRefusal) return refuse(400, webhookRefusal);
    // The price and the charge are the serving provider's: a free preview takes nothing (decision 039).
    const provider = deps.inference.providerFor(tool.id);
    const price = priceOf(tool.id, provider.name, prepared.units);
    if (profile.tokens < price.charged) return refuse(402, TOOL_MESSAGES.notEnoughTokens, { balance: profile.tokens });
    // At the cap, say so before the costly image checks (a call without images has none: the
    // charge's own check under the lock is enough).
    const atCap = prepared.images.length > 0 && !(await hasRoomForJob(db, user.id, cap, batch ? 'batch' : 'single'));
    if (atCap) return tooManyJobs(cap, batch);
    // Full storage: a clear refusal before the charge (decision 022: 409, the account's state, not the request).
    if (profile.storageUsedBytes >= deps.storageQuotaBytes) return refuse(409, STORAGE_QUOTA_REACHED);
    const refusal =
      (await costlyChecks(deps, request, prepared)) ?? (await foreseenRefusal(deps, request, prepared, provider));
    if (refusal) return refusal;

    const created = await chargeAndQueue(deps, {
      userId: user.id,
      tool: tool.id,
      prepared,
      price,
      provider: provider.name,
      idempotencyKey,
      requestHash,
      webhookUrl,
      batch,
    });
    if (!created.reused) deps.metrics?.tokens('charged', created.job.charged);
    return { kind: 'job', jobId: created.job.id, isNew: !created.reused, handedOver: created.handedOver };
  } catch (error) {
    if (error instanceof InputError) return refuse(error.status, error.message);
    if (error instanceof IdempotencyConflictError) return refuse(422, TOOL_MESSAGES.idempotencyMismatch);
    if (error instanceof InsufficientTokensError) {
      return refuse(402, TOOL_MESSAGES.notEnoughTokens, { balance: await balanceOf(db, user.id) });
    }
    if (error instanceof TooManyJobsError) return tooManyJobs(error.limit, batch);
    throw error;
  }
}

/** Why this account may not call a tool now (no profile, fraud before dispute, unverified), or null. */
export function standingRefusal(user: ToolCallRequest['user'], profile: ProfileWithStorage | null): Refusal | null {
  if (!profile) return refuse(401, TOOL_MESSAGES.signInRequired);
  if (profile.isFraudulent) return refuse(403, TOOL_MESSAGES.fraud);
  if (profile.isDispute) return refuse(403, TOOL_MESSAGES.dispute);
  if (!user.emailVerified) return refuse(403, TOOL_MESSAGES.unverified);
  return null;
}

/** Every image decoded in full whatever the moderation policy; the explicit-content check reuses the decoded copies. */
async function costlyChecks(
  deps: ToolCallServiceDeps,
  request: ToolCallRequest,
  prepared: PreparedTool,
): Promise<Refusal | null> {
  const decoded = await inspectImages(prepared.images, prepared.imageField, request.user.id);
  const verdict = await deps.moderation.check(decoded, request.signal);
  if (!verdict.blocked) return null;
  deps.logger.info('explicit upload refused', {
    userId: request.user.id,
    tool: request.tool.id,
    score: verdict.explicitScore,
  });
  return refuse(400, EXPLICIT_IMAGE_MESSAGE);
}

/**
 * The serving provider's own refusal, asked before the charge (the local engine's precheck: no face
 * to fix): 422 with what it tells the user. A check that fails for any other reason refuses nothing:
 * the job runs, and fails and is refunded if the engine cannot serve it.
 */
async function foreseenRefusal(
  deps: ToolCallServiceDeps,
  request: ToolCallRequest,
  prepared: PreparedTool,
  provider: InferenceProvider,
): Promise<Refusal | null> {
  if (!provider.precheck) return null;
  const timeout = AbortSignal.timeout(PRECHECK_TIMEOUT_MS);
  try {
    await provider.precheck(prepared.input, request.signal ? AbortSignal.any([request.signal, timeout]) : timeout);
    return null;
  } catch (error) {
    const userMessage = error instanceof ProviderError ? error.options.userMessage : undefined;
    if (userMessage) return refuse(422, userMessage);
    if (request.signal?.aborted) throw error;
    deps.logger.warn('provider precheck failed; the call goes on', { tool: request.tool.id, error });
    return null;
  }
}
