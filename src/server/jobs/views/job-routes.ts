// Following a job over HTTP: GET /api/jobs/:id (the job view and, while it waits or runs, its place
// and time left; `Prefer: wait=N` waits up to 5 s for its finish) and GET /api/jobs (the caller's
// jobs, newest first, paged as My Creations is; `?status=active`: those still queued or running).
// Owner only: another user's job is a missing one.
import { Hono } from 'hono';
import type { JobDetail, JobList } from '../../../contract/tool-responses';
import { TOOL_MESSAGES } from '../../../contract/tools';
import type { WebhookDelivery } from '../../../contract/webhooks';
import { describeRoute } from '../../api-docs/describe-route';
import type { Auth } from '../../auth/auth';
import { sessionUser } from '../../auth/session';
import type { AppDb } from '../../db/client';
import { isUuid } from '../../db/ids';
import { PRIVATE_JSON_CACHE } from '../../responses/private-cache';
import type { JobSignals } from '../queue/job-signals';
import { activeJobsOfUser, findOwnJob } from '../queue/jobs-repository';
import { GET_JOB_OPERATION } from './api-docs';
import { decodePageCursor, listJobPage, PAGE_LIMIT_ERROR, pageLimit, timeCursor } from './job-pages';
import type { JobProgressOf } from './job-progress';
import { unlessGone, viewJob, waitForJob, waitMsFor } from './job-view';

export type JobRoutesDeps = {
  db: AppDb;
  auth: Auth;
  /** A waiting job's place and time left (job-progress.ts), shared with the tool calls' 202. */
  progressOf: JobProgressOf;
  signals?: JobSignals;
  /**
   * The delivery state of a job's webhook (webhooks/deliveries/delivery-repository.ts `deliveryOf`,
   * handed in by app.ts: webhooks/ sits above jobs/views, whose job view its deliveries send).
   */
  webhookDeliveryOf: (db: AppDb, jobId: string, url: string) => Promise<WebhookDelivery | null>;
};

/**
 * The longest a job read waits for the job's finish (GET /api/jobs/:id with `Prefer: wait=N`): a page
 * following its job hears of the finish at once, and of its place in the line every few seconds.
 */
const JOB_READ_WAIT_LIMIT_MS = 5_000;

/** At most this many jobs in progress are listed (the per-user cap is far lower). */
const ACTIVE_JOBS_LIMIT = 50;

export function jobRoutes(deps: JobRoutesDeps) {
  const { db, auth, progressOf } = deps;
  const app = new Hono();

  app.get('/jobs/:id', describeRoute(GET_JOB_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such job' }, 404);
    const found = await findOwnJob(db, id, user.id);
    if (!found) return c.json({ error: 'No such job' }, 404);
    const wait = waitMsFor(c.req.header('prefer'), JOB_READ_WAIT_LIMIT_MS, 0);
    const final = found.status === 'succeeded' || found.status === 'failed';
    const job = wait > 0 && !final ? (await waitForJob(db, id, wait, deps.signals).catch(unlessGone))?.job : found;
    if (!job) return c.json({ error: 'No such job' }, 404);
    const webhook = job.webhookUrl ? await deps.webhookDeliveryOf(db, job.id, job.webhookUrl) : null;
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({
      ...viewJob(job),
      ...(await progressOf(job)),
      ...(webhook ? { webhook } : {}),
    } satisfies JobDetail);
  });

  app.get('/jobs', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    // ?status=active: the jobs still queued or running (a page loaded meanwhile says when they end).
    const status = c.req.query('status');
    if (status !== undefined) {
      if (status !== 'active') return c.json({ error: 'status: must be active' }, 400);
      const active = await activeJobsOfUser(db, user.id, ACTIVE_JOBS_LIMIT);
      c.header('Cache-Control', PRIVATE_JSON_CACHE);
      return c.json({ jobs: active.map(viewJob), next: null } satisfies JobList);
    }
    const limit = pageLimit(c.req.query('limit'));
    if (limit === null) return c.json({ error: PAGE_LIMIT_ERROR }, 400);
    // Paged as My Creations is (a job's time to the microsecond and its id): a millisecond time
    // skipped the jobs made within the same millisecond as a page's last one.
    const before = c.req.query('before');
    const cursor = before ? (decodePageCursor(before) ?? timeCursor(before)) : null;
    if (before && !cursor) return c.json({ error: 'before: must be the next value of a previous page' }, 400);
    const page = await listJobPage(db, user.id, { tool: null, cursor, limit });
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({ jobs: page.jobs.map(viewJob), next: page.next } satisfies JobList);
  });

  return app;
}
