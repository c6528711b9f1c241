// The ten tool calls (POST /api/<path>, product-spec.md section 7) and the jobs and files they
// produce, over HTTP: signed in (401), calls per minute (429), a JSON object (400); the rules and
// the money are the tool-call service's (tool-call-service.ts); then the call waits for its job.
import { type Context, Hono } from 'hono';
import type {
  JobDetail,
  JobList,
  ToolNotEnoughTokens,
  ToolPending,
  ToolRefusal,
  ToolResult,
  ToolsInfo,
  ToolTooManyCalls,
} from '../../contract/tool-responses';
import { TOOL_MESSAGES, TOOLS, type ToolDefinition } from '../../contract/tools';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import {
  decodePageCursor,
  listCreationPage,
  PAGE_LIMIT_ERROR,
  pageLimit,
  timeCursor,
} from '../creations/creations-repository';
import { isUuid } from '../db/ids';
import type { InferenceRouter } from '../inference/routing';
import { isFreePreview, unitPrice } from '../jobs/free-preview';
import { createJobProgress } from '../jobs/job-progress';
import { JobGoneError, type JobView, viewJob, waitForJob } from '../jobs/job-view';
import { findOwnFile, findOwnJob } from '../jobs/jobs-repository';
import { balanceOf } from '../ledger/ledger';
import { bodyTooLarge, limitBody } from '../security/body-limit';
import { fileEtag, PRIVATE_JSON_CACHE, sendPrivateImage } from '../web/private-cache';
import { readSessionAndCountCall } from './tool-call-limit';
import { callTool, type ToolCallServiceDeps } from './tool-call-service';

export type ToolRoutesDeps = ToolCallServiceDeps & {
  auth: Auth;
  waitMs: number;
  /** Tool calls an account may make per minute (TOOL_CALLS_PER_MINUTE). */
  callsPerMinute: number;
  /** Jobs a worker runs at once (WORKER_CONCURRENCY): what a waiting job's estimate plays the line with. */
  workerSlots: number;
};

/** A tool call's JSON may carry a 10 MB image as base64 (about 13.4 MB of text). */
const TOOL_BODY_LIMIT = 15 * 1024 * 1024;

/** The body as a JSON object, or what is wrong with it. */
function parseObject(raw: string): Record<string, unknown> | string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return 'body: must be JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body: must be a JSON object';
  return body as Record<string, unknown>;
}

/** The spec's response for a finished job: success and output (list or one URL), or the analysis. */
function toolResponse(tool: ToolDefinition, view: JobView, balance: number): ToolResult {
  const common = { jobId: view.id, balance, charged: view.charged, demo: view.demo };
  if (view.status === 'failed')
    return { success: false, error: view.error ?? tool.failureMessage, refunded: true, ...common };
  if (tool.response === 'analysis') return { success: true, keywords: view.keywords, colors: view.colors, ...common };
  const output = tool.response === 'image' ? (view.output?.[0] ?? null) : view.output;
  return { success: true, output, ...common };
}

/**
 * How long a request waits for its job: what the client asks with RFC 7240 `Prefer: wait=N`, at most
 * `limitMs`; `unasked` without it (a tool call: the server's limit, the spec's synchronous answer).
 * Our web page asks wait=0 of a call (its 202 ends "Sending your request…") and then follows the
 * job with job reads that wait for its finish (decision 042).
 */
export function waitMsFor(prefer: string | undefined, limitMs: number, unasked = limitMs): number {
  const asked = prefer?.match(/(?:^|[,;\s])wait=(\d{1,5})(?:$|[,;\s])/i)?.[1];
  return asked === undefined ? unasked : Math.min(limitMs, Number(asked) * 1000);
}

/**
 * The longest a job read waits for the job's finish (GET /api/jobs/:id with `Prefer: wait=N`): a page
 * following its job hears of the finish at once, and of its place in the line every few seconds.
 */
const JOB_READ_WAIT_LIMIT_MS = 5_000;

/** Null for a job deleted (with its account) while the request waited for it; any other error stands. */
function unlessGone(error: unknown): null {
  if (error instanceof JobGoneError) return null;
  throw error;
}

export function toolRoutes(deps: ToolRoutesDeps) {
  const { db, auth } = deps;
  const app = new Hono();
  const progressOf = createJobProgress(db, { slotsPerWorker: deps.workerSlots });

  for (const tool of TOOLS) {
    app.post(
      tool.apiPath,
      limitBody(TOOL_BODY_LIMIT, (c) => bodyTooLarge(c, { success: false })),
      async (c) => {
        const counted = await readSessionAndCountCall(auth, db, c.req.raw.headers, deps.callsPerMinute);
        if (!counted) return c.json({ success: false, error: TOOL_MESSAGES.signInRequired } satisfies ToolRefusal, 401);
        const { user, limit, caller } = counted;
        if (!limit.allowed) {
          c.header('Retry-After', String(limit.retryAfterSeconds));
          const answer: ToolTooManyCalls = {
            success: false,
            error: TOOL_MESSAGES.tooManyCalls,
            retryAfterSeconds: limit.retryAfterSeconds,
          };
          return c.json(answer, 429);
        }
        const rawBody = await c.req.text();
        const body = parseObject(rawBody);
        if (typeof body === 'string') return c.json({ success: false, error: body } satisfies ToolRefusal, 400);

        const outcome = await callTool(deps, {
          user,
          caller,
          tool,
          body,
          rawBody,
          idempotencyKey: c.req.header('idempotency-key')?.trim() || undefined,
          signal: c.req.raw.signal,
        });
        if (outcome.kind === 'refused') {
          const { kind: _kind, status, ...refusal } = outcome;
          if (refusal.retryAfterSeconds) c.header('Retry-After', String(refusal.retryAfterSeconds));
          const answer: ToolRefusal | ToolNotEnoughTokens | ToolTooManyCalls = { success: false, ...refusal };
          return c.json(answer, status);
        }
        // A job handed to a worker here is running already; a queued one wakes a worker (here or, relayed, elsewhere).
        if (outcome.isNew && !outcome.handedOver) deps.signals?.queued();
        return answerWithJob(c, tool, outcome.jobId, user.id, outcome.isNew);
      },
    );
  }

  /** Waits for the job as long as the call may, then answers its result, or 202 while it still runs. */
  async function answerWithJob(c: Context, tool: ToolDefinition, jobId: string, userId: string, justQueued: boolean) {
    const wait = waitMsFor(c.req.header('prefer'), deps.waitMs);
    const waited = await waitForJob(db, jobId, wait, deps.signals, { justQueued }).catch(unlessGone);
    if (!waited) return c.json({ success: false, error: TOOL_MESSAGES.jobDeleted } satisfies ToolRefusal, 410);
    const { job } = waited;
    const balance = waited.balance ?? (await balanceOf(db, userId));
    const view = viewJob(job);
    if (job.status === 'queued' || job.status === 'running') {
      // Still working: the client follows it at GET /api/jobs/:id.
      const answer: ToolPending = {
        success: false,
        pending: true,
        jobId: job.id,
        status: job.status,
        ...(await progressOf(job)),
        balance,
        charged: view.charged,
        demo: view.demo,
      };
      return c.json(answer, 202);
    }
    return c.json(toolResponse(tool, view, balance), job.status === 'failed' ? 502 : 200);
  }

  app.get('/jobs/:id', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such job' }, 404);
    const found = await findOwnJob(db, id, user.id);
    if (!found) return c.json({ error: 'No such job' }, 404);
    const wait = waitMsFor(c.req.header('prefer'), JOB_READ_WAIT_LIMIT_MS, 0);
    const final = found.status === 'succeeded' || found.status === 'failed';
    const job = wait > 0 && !final ? (await waitForJob(db, id, wait, deps.signals).catch(unlessGone))?.job : found;
    if (!job) return c.json({ error: 'No such job' }, 404);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({
      ...viewJob(job),
      ...(await progressOf(job)),
    } satisfies JobDetail);
  });

  app.get('/jobs', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const limit = pageLimit(c.req.query('limit'));
    if (limit === null) return c.json({ error: PAGE_LIMIT_ERROR }, 400);
    // Paged as My Creations is (a job's time to the microsecond and its id): a millisecond time
    // skipped the jobs made within the same millisecond as a page's last one.
    const before = c.req.query('before');
    const cursor = before ? (decodePageCursor(before) ?? timeCursor(before)) : null;
    if (before && !cursor) return c.json({ error: 'before: must be the next value of a previous page' }, 400);
    const page = await listCreationPage(db, user.id, { tool: null, cursor, limit });
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({ jobs: page.jobs.map(viewJob), next: page.next } satisfies JobList);
  });

  app.get('/files/:id', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such file' }, 404);
    // Another user's file is answered exactly like a missing one.
    const file = await findOwnFile(db, id, user.id);
    if (!file) return c.json({ error: 'No such file' }, 404);
    return sendPrivateImage(c, {
      etag: fileEtag(file.id),
      contentType: file.contentType,
      read: () => deps.storage.get(file.storageKey),
    });
  });

  app.get('/tools', (c) => c.json(toolsInfoOf(deps.inference)));

  return app;
}

/** `GET /api/tools`: which provider serves each tool here and what it takes (prerendered pages carry it too). */
export function toolsInfoOf(inference: InferenceRouter): ToolsInfo {
  const routing = inference.describe();
  return {
    tools: TOOLS.map(({ id }) => ({
      id,
      provider: routing[id],
      demo: routing[id] === 'demo',
      freePreview: isFreePreview(id, routing[id]),
      price: unitPrice(id, routing[id]),
    })),
  };
}
