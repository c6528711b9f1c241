// The ten tool calls (POST /api/<path>, product-spec.md section 7) over HTTP, and GET /api/tools:
// signed in (401), calls per minute (429), an answer the client accepts (406: image-answer.ts), a
// JSON object or a multipart form (400/415: tool-call-body.ts); the rules and the money are the
// tool-call service's (tool-call-service.ts); then the call waits for its job, and answers JSON or,
// when the client's Accept prefers it, the image itself. Following a job afterwards is
// jobs/views/job-routes.ts, its files jobs/views/file-routes.ts.
import { type Context, Hono } from 'hono';
import { RATE_LIMIT_HEADERS } from '../../../contract/api-keys';
import { INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../../contract/input-limits';
import type {
  ToolNotEnoughTokens,
  ToolPending,
  ToolRefusal,
  ToolResult,
  ToolsInfo,
  ToolTooManyCalls,
} from '../../../contract/tool-responses';
import { TOOL_MESSAGES, TOOLS, type ToolDefinition } from '../../../contract/tools';
import { describeRoute } from '../../api-docs/describe-route';
import type { Auth } from '../../auth/auth';
import type { SessionUser } from '../../auth/session';
import type { InferenceRouter } from '../../inference/routing';
import { balanceOf } from '../../ledger/ledger';
import { isFreePreview, unitPrice } from '../../pricing/prices';
import { rateLimitValues, setRateLimitHeaders } from '../../rate-limit/tool-call-window';
import { bodyTooLarge, limitBody } from '../../security/body-limit';
import type { JobProgressOf } from '../views/job-progress';
import { type JobView, unlessGone, viewJob, waitForJob, waitMsFor } from '../views/job-view';
import { TOOLS_INFO_OPERATION, toolOperation } from './api-docs';
import { IMAGE_ANSWER_MESSAGES, imageAnswer, type ToolAnswerFormat, toolAnswerFormat } from './image-answer';
import { readToolCallBody } from './tool-call-body';
import { type CountedCall, readSessionAndCountCall } from './tool-call-limit';
import { callTool, type ToolCallOutcome, type ToolCallServiceDeps } from './tool-call-service';

export type ToolRoutesDeps = ToolCallServiceDeps & {
  auth: Auth;
  waitMs: number;
  /** Tool calls an account may make per minute (TOOL_CALLS_PER_MINUTE). */
  callsPerMinute: number;
  /** A waiting job's place and time left (jobs/views/job-progress.ts), shared with the job reads. */
  progressOf: JobProgressOf;
};

/** A tool call's JSON may carry a 10 MB image as base64 (about 13.4 MB of text); a multipart one the same bytes. */
const TOOL_BODY_LIMIT = TOOL_BODY_MAX_BYTES;

/** The spec's response for a finished job: success and output (list or one URL), or the analysis. */
function toolResponse(tool: ToolDefinition, view: JobView, balance: number): ToolResult {
  const common = { jobId: view.id, balance, charged: view.charged, demo: view.demo };
  if (view.status === 'failed')
    return { success: false, error: view.error ?? tool.failureMessage, refunded: true, ...common };
  if (tool.response === 'analysis') return { success: true, keywords: view.keywords, colors: view.colors, ...common };
  const output = tool.response === 'image' ? (view.output?.[0] ?? null) : view.output;
  return { success: true, output, ...common };
}

export function toolRoutes(deps: ToolRoutesDeps) {
  const { db, progressOf } = deps;
  const app = new Hono();

  for (const tool of TOOLS) {
    app.post(
      tool.apiPath,
      describeRoute(() => toolOperation(tool, deps.inference)),
      // The answer depends on Accept (JSON or the image): caches must key on it, refusals included.
      async (c, next) => {
        c.header('Vary', 'Accept');
        await next();
      },
      limitBody(TOOL_BODY_LIMIT, (c) => bodyTooLarge(c, { success: false, error: INPUT_MESSAGES.requestTooLarge })),
      async (c) => {
        const counted = await countedCaller(c, deps);
        if (counted instanceof Response) return counted;
        const { user, caller } = counted;
        // Decided before the body is read: an analysis asked for as an image only is never charged.
        const format = toolAnswerFormat(c.req.header('accept'), tool);
        if (format === 'not-acceptable')
          return c.json({ success: false, error: IMAGE_ANSWER_MESSAGES.noImage(tool) } satisfies ToolRefusal, 406);
        const read = await readToolCallBody(c.req, tool);
        if ('error' in read) return c.json({ success: false, error: read.error } satisfies ToolRefusal, read.status);

        const outcome = await callTool(deps, {
          user,
          caller,
          tool,
          body: read.body,
          rawBody: read.canonical,
          idempotencyKey: c.req.header('idempotency-key')?.trim() || undefined,
          signal: c.req.raw.signal,
        });
        if (outcome.kind === 'refused') return refusalAnswer(c, outcome);
        // A job handed to a worker here is running already; a queued one wakes a worker (here or, relayed, elsewhere).
        if (outcome.isNew && !outcome.handedOver) deps.signals?.queued();
        return answerWithJob(c, tool, outcome.jobId, user.id, outcome.isNew, format);
      },
    );
  }

  app.get('/tools', describeRoute(TOOLS_INFO_OPERATION), (c) => c.json(toolsInfoOf(deps.inference)));

  /** Waits for the job as long as the call may, then answers its result (JSON, or its image), or 202 while it still runs. */
  async function answerWithJob(
    c: Context,
    tool: ToolDefinition,
    jobId: string,
    userId: string,
    justQueued: boolean,
    format: ToolAnswerFormat,
  ) {
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
    if (format === 'image' && job.status === 'succeeded') {
      const image = await imageAnswer(c, deps, { tool, job, charged: view.charged, balance, demo: view.demo });
      // Its output gone already: deleted with its account while the call waited.
      return image ?? c.json({ success: false, error: TOOL_MESSAGES.jobDeleted } satisfies ToolRefusal, 410);
    }
    return c.json(toolResponse(tool, view, balance), job.status === 'failed' ? 502 : 200);
  }

  return app;
}

/**
 * Who makes a tool call (a tool's or a batch image's), counted in their window with the RateLimit
 * headers set; or the answer that refuses it: 401 signed out, 429 over TOOL_CALLS_PER_MINUTE.
 */
export async function countedCaller(
  c: Context,
  deps: Pick<ToolRoutesDeps, 'auth' | 'db' | 'callsPerMinute'>,
): Promise<Response | ({ user: SessionUser } & CountedCall)> {
  const counted = await readSessionAndCountCall(deps.auth, deps.db, c.req.raw.headers, deps.callsPerMinute);
  if (!counted) return c.json({ success: false, error: TOOL_MESSAGES.signInRequired } satisfies ToolRefusal, 401);
  const { limit } = counted;
  // Every answer from here on says where the account stands in its window (the one just counted).
  setRateLimitHeaders(c, rateLimitValues(counted.window, deps.callsPerMinute));
  if (limit.allowed) return counted;
  c.header('Retry-After', String(limit.retryAfterSeconds));
  // The same instant as Retry-After (the headers above read the clock a moment later).
  c.header(RATE_LIMIT_HEADERS.reset, String(limit.retryAfterSeconds));
  const answer: ToolTooManyCalls = {
    success: false,
    error: TOOL_MESSAGES.tooManyCalls,
    retryAfterSeconds: limit.retryAfterSeconds,
  };
  return c.json(answer, 429);
}

/** A refused call's answer, with its Retry-After when it has one: nothing was charged. */
export function refusalAnswer(c: Context, outcome: Extract<ToolCallOutcome, { kind: 'refused' }>) {
  const { kind: _kind, status, ...refusal } = outcome;
  if (refusal.retryAfterSeconds) c.header('Retry-After', String(refusal.retryAfterSeconds));
  const answer: ToolRefusal | ToolNotEnoughTokens | ToolTooManyCalls = { success: false, ...refusal };
  return c.json(answer, status);
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
