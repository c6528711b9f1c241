// The ten tool calls (POST /api/<path>, product-spec.md section 7) and the jobs and files they
// produce. Every check the spec's client makes is made here too, and nothing is charged unless all
// pass. Cheap checks come first: signed in (401), calls per minute (429), the body's userId is the
// caller (403), not suspended (fraud before dispute, 403), verified (403), valid input: shape,
// storable text, image header, dimensions (400/413), enough tokens (402), room in the user's share
// of the queue (429); only then the costly ones, off the event loop: every image decoded in full
// (400 if damaged) and the explicit-content check (400).
import { createHash } from 'node:crypto';
import { and, desc, eq, lt } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ToolResult } from '../../contract/tool-responses';
import { TOOL_MESSAGES, TOOLS, type ToolDefinition } from '../../contract/tools';
import { readOrCreateProfile } from '../accounts/profiles';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { isUuid } from '../db/ids';
import { files, jobs } from '../db/schema';
import { inspectImages } from '../images/image-decode';
import { InputError } from '../images/image-input';
import { EXPLICIT_IMAGE_MESSAGE, type ImageModeration } from '../images/moderation/image-moderation';
import type { InferenceRouter } from '../inference/routing';
import { hasRoomForJob, TooManyJobsError } from '../jobs/fair-queue';
import type { JobSignals } from '../jobs/job-signals';
import type { Queue } from '../jobs/queue';
import {
  createToolJob,
  earlierJobFor,
  IdempotencyConflictError,
  type JobView,
  queuePosition,
  viewJob,
  waitForJob,
} from '../jobs/tool-jobs';
import { balanceOf, InsufficientTokensError } from '../ledger/ledger';
import type { Logger } from '../log';
import { bodyTooLarge } from '../security/body-limit';
import type { FileStorage } from '../storage/storage';
import { costOf, prepareTool } from './definitions';
import { countToolCall } from './tool-call-limit';

export type ToolRoutesDeps = {
  db: AppDb;
  auth: Auth;
  queue: Queue;
  storage: FileStorage;
  inference: InferenceRouter;
  moderation: ImageModeration;
  logger: Logger;
  waitMs: number;
  /** Tool calls an account may make per minute (TOOL_CALLS_PER_MINUTE). */
  callsPerMinute: number;
  /** Tool jobs one user may have queued or running at once (MAX_ACTIVE_JOBS_PER_USER). */
  maxActiveJobsPerUser: number;
  signals?: JobSignals;
};

/** A tool call's JSON may carry a 10 MB image as base64 (about 13.4 MB of text). */
const TOOL_BODY_LIMIT = 15 * 1024 * 1024;
const MAX_IDEMPOTENCY_KEY = 200;
/** When a user at the job cap may try again: jobs take seconds to a minute. */
const TOO_MANY_JOBS_RETRY_SECONDS = 15;

/** The spec's response for a finished job: success and output (list or one URL), or the analysis. */
function toolResponse(tool: ToolDefinition, view: JobView, balance: number): ToolResult {
  const common = { jobId: view.id, balance };
  if (view.status === 'failed')
    return { success: false, error: view.error ?? tool.failureMessage, refunded: true, ...common };
  if (tool.response === 'analysis') return { success: true, keywords: view.keywords, colors: view.colors, ...common };
  const output = tool.response === 'image' ? (view.output?.[0] ?? null) : view.output;
  return { success: true, output, ...common };
}

/**
 * How long a tool call waits for its job: the server's limit, or less when the client asks with
 * RFC 7240 `Prefer: wait=N` (our web page does, to show the queue position while a job waits).
 */
export function waitMsFor(prefer: string | undefined, limitMs: number): number {
  const asked = prefer?.match(/(?:^|[,;\s])wait=(\d{1,5})(?:$|[,;\s])/i)?.[1];
  return asked === undefined ? limitMs : Math.min(limitMs, Number(asked) * 1000);
}

export function toolRoutes(deps: ToolRoutesDeps) {
  const { db, auth } = deps;
  const app = new Hono();

  for (const tool of TOOLS) {
    app.post(
      tool.apiPath,
      bodyLimit({
        maxSize: TOOL_BODY_LIMIT,
        onError: (c) => bodyTooLarge(c, { success: false }),
      }),
      async (c) => {
        const user = await sessionUser(auth, c.req.raw.headers);
        if (!user) return c.json({ success: false, error: TOOL_MESSAGES.signInRequired }, 401);
        const limit = await countToolCall(db, user.id, deps.callsPerMinute);
        if (!limit.allowed) {
          c.header('Retry-After', String(limit.retryAfterSeconds));
          return c.json(
            { success: false, error: TOOL_MESSAGES.tooManyCalls, retryAfterSeconds: limit.retryAfterSeconds },
            429,
          );
        }
        const raw = await c.req.text();
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          return c.json({ success: false, error: 'body: must be JSON' }, 400);
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return c.json({ success: false, error: 'body: must be a JSON object' }, 400);
        }
        const claimed = (body as { userId?: unknown }).userId;
        if (claimed !== undefined && claimed !== user.id)
          return c.json({ success: false, error: TOOL_MESSAGES.wrongUser }, 403);

        const profile = await readOrCreateProfile(db, user.id);
        if (!profile) return c.json({ success: false, error: TOOL_MESSAGES.signInRequired }, 401);
        if (profile.isFraudulent) return c.json({ success: false, error: TOOL_MESSAGES.fraud }, 403);
        if (profile.isDispute) return c.json({ success: false, error: TOOL_MESSAGES.dispute }, 403);
        if (!user.emailVerified) return c.json({ success: false, error: TOOL_MESSAGES.unverified }, 403);

        const idempotencyKey = c.req.header('idempotency-key')?.trim() || undefined;
        if (idempotencyKey && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
          return c.json(
            { success: false, error: `Idempotency-Key: must be at most ${MAX_IDEMPOTENCY_KEY} characters` },
            400,
          );
        }
        const requestHash = createHash('sha256').update(`${tool.id}\n${raw}`).digest('hex');
        // A repeated call answers with the job the first one made, whatever the balance is now.
        let earlier: Awaited<ReturnType<typeof earlierJobFor>>;
        try {
          earlier = await earlierJobFor(db, user.id, idempotencyKey, requestHash);
        } catch (error) {
          if (error instanceof IdempotencyConflictError) {
            return c.json({ success: false, error: TOOL_MESSAGES.idempotencyMismatch }, 422);
          }
          throw error;
        }
        if (earlier) return answerWithJob(c, tool, earlier.id, user.id);

        let prepared: ReturnType<typeof prepareTool>;
        try {
          prepared = prepareTool(tool.id, body);
        } catch (error) {
          if (error instanceof InputError) return c.json({ success: false, error: error.message }, error.status);
          throw error;
        }
        const cost = costOf(tool.id, prepared);
        if (profile.tokens < cost) {
          return c.json({ success: false, error: TOOL_MESSAGES.notEnoughTokens, balance: profile.tokens }, 402);
        }
        // At the cap, say so before the costly checks; createToolJob enforces it under a lock.
        if (!(await hasRoomForJob(db, user.id, deps.maxActiveJobsPerUser))) {
          return tooManyJobs(c, deps.maxActiveJobsPerUser);
        }
        // Decoded in full whatever the moderation policy; the check reuses the decoded copies.
        let decoded: Awaited<ReturnType<typeof inspectImages>>;
        try {
          decoded = await inspectImages(prepared.images, prepared.imageField);
        } catch (error) {
          if (error instanceof InputError) return c.json({ success: false, error: error.message }, error.status);
          throw error;
        }
        const verdict = await deps.moderation.check(decoded, c.req.raw.signal);
        if (verdict.blocked) {
          deps.logger.info('explicit upload refused', { userId: user.id, tool: tool.id, score: verdict.explicitScore });
          return c.json({ success: false, error: EXPLICIT_IMAGE_MESSAGE }, 400);
        }

        let created: Awaited<ReturnType<typeof createToolJob>>;
        try {
          created = await createToolJob(deps, {
            userId: user.id,
            tool: tool.id,
            prepared,
            cost,
            provider: deps.inference.providerFor(tool.id).name,
            idempotencyKey,
            requestHash,
          });
        } catch (error) {
          if (error instanceof InsufficientTokensError) {
            return c.json(
              { success: false, error: TOOL_MESSAGES.notEnoughTokens, balance: await balanceOf(db, user.id) },
              402,
            );
          }
          if (error instanceof IdempotencyConflictError) {
            return c.json({ success: false, error: TOOL_MESSAGES.idempotencyMismatch }, 422);
          }
          if (error instanceof TooManyJobsError) return tooManyJobs(c, error.limit);
          throw error;
        }
        if (!created.reused) deps.signals?.queued();
        return answerWithJob(c, tool, created.job.id, user.id);
      },
    );
  }

  function tooManyJobs(c: Context, limit: number) {
    c.header('Retry-After', String(TOO_MANY_JOBS_RETRY_SECONDS));
    return c.json(
      { success: false, error: TOOL_MESSAGES.tooManyJobs(limit), retryAfterSeconds: TOO_MANY_JOBS_RETRY_SECONDS },
      429,
    );
  }

  /** Waits for the job as long as the call may, then answers its result, or 202 while it still runs. */
  async function answerWithJob(c: Context, tool: ToolDefinition, jobId: string, userId: string) {
    const job = await waitForJob(db, jobId, waitMsFor(c.req.header('prefer'), deps.waitMs), deps.signals);
    const balance = await balanceOf(db, userId);
    const view = viewJob(job);
    if (job.status === 'queued' || job.status === 'running') {
      // Still working: the client follows it at GET /api/jobs/:id.
      const position = await queuePosition(db, job);
      return c.json(
        { success: false, pending: true, jobId: job.id, status: job.status, queuePosition: position, balance },
        202,
      );
    }
    return c.json(toolResponse(tool, view, balance), job.status === 'failed' ? 502 : 200);
  }

  app.get('/jobs/:id', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such job' }, 404);
    const [job] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, id), eq(jobs.userId, user.id)));
    if (!job) return c.json({ error: 'No such job' }, 404);
    return c.json({ ...viewJob(job), queuePosition: await queuePosition(db, job) });
  });

  app.get('/jobs', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 20) || 20, 1), 100);
    const before = c.req.query('before');
    const beforeDate = before ? new Date(before) : null;
    if (beforeDate && Number.isNaN(beforeDate.getTime())) return c.json({ error: 'before: must be a date' }, 400);
    const rows = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.userId, user.id), beforeDate ? lt(jobs.createdAt, beforeDate) : undefined))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit).map(viewJob);
    return c.json({ jobs: page, next: rows.length > limit ? (page.at(-1)?.createdAt ?? null) : null });
  });

  app.get('/files/:id', async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such file' }, 404);
    // Another user's file is answered exactly like a missing one.
    const [file] = await db
      .select()
      .from(files)
      .where(and(eq(files.id, id), eq(files.userId, user.id)));
    const bytes = file ? await deps.storage.get(file.storageKey) : null;
    if (!file || !bytes) return c.json({ error: 'No such file' }, 404);
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': file.contentType,
      'Content-Length': String(bytes.length),
      'Cache-Control': 'private, max-age=86400, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  app.get('/tools', (c) => {
    const routing = deps.inference.describe();
    return c.json({ tools: TOOLS.map((t) => ({ id: t.id, provider: routing[t.id], demo: routing[t.id] === 'demo' })) });
  });

  return app;
}
