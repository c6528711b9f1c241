// My Creations over HTTP (issue 17, contract/creations.ts): the signed-in user's jobs with their
// cost, settings and images, page by page; deleting one with its stored files; thumbnails.
import { Hono } from 'hono';
import type { CreationList, SharedCreation, ShareLink } from '../../contract/creations';
import { TOOL_MESSAGES, TOOLS } from '../../contract/tools';
import { describeRoute } from '../api-docs/describe-route';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { isUuid } from '../db/ids';
import { removeFiles } from '../jobs/job-files';
import { findOwnFile } from '../jobs/queue/jobs-repository';
import { decodePageCursor, listJobPage, PAGE_LIMIT_ERROR, pageLimit } from '../jobs/views/job-pages';
import { fileEtag, PRIVATE_JSON_CACHE, sendPrivateImage } from '../responses/private-cache';
import type { FileStorage } from '../storage/storage';
import { exportAccount } from './account-export';
import { LIST_CREATIONS_OPERATION } from './api-docs';
import { viewCreation } from './creation-view';
import {
  batchImageCounts,
  chargesOfJobs,
  deleteFinishedJob,
  filesOfJobs,
  versionsOfJobs,
} from './creations-repository';
import { readSharedCreation } from './shared-creation';
import { findSharedJob, shareJob, shareUrl, unshareJob } from './sharing';
import { thumbnailKey, thumbnailOf } from './thumbnails';
import { type CreationSettingsConfig, usageOf } from './usage';

export type CreationRoutesDeps = {
  db: AppDb;
  auth: Auth;
  storage: FileStorage;
  settings: CreationSettingsConfig;
  /** The app's public URL, for share links. */
  appUrl: string;
};

const TOOL_IDS = new Set<string>(TOOLS.map((t) => t.id));

export function creationRoutes(deps: CreationRoutesDeps) {
  const { db, auth, storage } = deps;
  const app = new Hono();

  app.get('/creations', describeRoute(LIST_CREATIONS_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const tool = c.req.query('tool') || null;
    if (tool && !TOOL_IDS.has(tool)) return c.json({ error: `tool: must be one of ${[...TOOL_IDS].join(', ')}` }, 400);
    const rawCursor = c.req.query('cursor');
    const cursor = rawCursor ? decodePageCursor(rawCursor) : null;
    if (rawCursor && !cursor) return c.json({ error: 'cursor: must be the next value of a previous page' }, 400);
    const limit = pageLimit(c.req.query('limit'));
    if (limit === null) return c.json({ error: PAGE_LIMIT_ERROR }, 400);

    const { jobs: page, next } = await listJobPage(db, user.id, { tool, cursor, limit });
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    const ids = page.map((j) => j.id);
    const [jobFiles, charges, batchImages, versions] = await Promise.all([
      filesOfJobs(db, ids),
      chargesOfJobs(db, ids),
      batchImageCounts(db, page),
      versionsOfJobs(db, page),
    ]);
    return c.json({
      creations: page.map((job) =>
        viewCreation(
          job,
          jobFiles.filter((f) => f.jobId === job.id),
          charges.get(job.id),
          job.shareToken ? shareUrl(deps.appUrl, job.shareToken) : null,
          batchImages,
          versions,
        ),
      ),
      next,
    } satisfies CreationList);
  });

  app.get('/creations/usage', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    return c.json(await usageOf(db, user.id, deps.settings));
  });

  app.delete('/creations/:jobId', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const jobId = c.req.param('jobId');
    const deleted = isUuid(jobId) ? await deleteFinishedJob(db, jobId, user.id) : null;
    if (deleted === null) return c.json({ error: 'No such creation' }, 404);
    // Not cancelled: it is charged and may be with its provider; the user deletes it once it ends.
    if (deleted === 'running')
      return c.json({ error: 'This job is still running: delete it once it has finished.' }, 409);
    // The rows are gone (the URLs answer 404 at once); then the bytes and their thumbnails.
    await removeFiles(storage, [...deleted, ...deleted.map((f) => ({ storageKey: thumbnailKey(f.id) }))]);
    return c.body(null, 204);
  });

  app.get('/files/:id/thumbnail', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const file = isUuid(id) ? await findOwnFile(db, id, user.id) : null;
    if (!file) return c.json({ error: 'No such file' }, 404);
    return sendPrivateImage(c, {
      etag: fileEtag(file.id, 'thumbnail'),
      contentType: 'image/webp',
      read: () => thumbnailOf(storage, file),
    });
  });

  app.get('/account/export', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    return c.body(exportAccount(db, storage, user.id), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="picture-palette-export.zip"',
      'Cache-Control': 'no-store',
    });
  });

  app.post('/creations/:jobId/share', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const jobId = c.req.param('jobId');
    const token = isUuid(jobId) ? await shareJob(db, jobId, user.id) : null;
    if (token === null) return c.json({ error: 'No such creation' }, 404);
    if (token === 'unfinished') return c.json({ error: 'Only a finished creation with a result can be shared.' }, 409);
    return c.json({ shareUrl: shareUrl(deps.appUrl, token) } satisfies ShareLink);
  });

  app.delete('/creations/:jobId/share', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const jobId = c.req.param('jobId');
    const found = isUuid(jobId) && (await unshareJob(db, jobId, user.id));
    if (!found) return c.json({ error: 'No such creation' }, 404);
    return c.body(null, 204);
  });

  // Signed out: the shared job's result, and its outputs' bytes by position, through the token only.
  app.get('/shared/:token', async (c) => {
    const creation = await readSharedCreation(db, c.req.param('token'));
    if (!creation) return c.json({ error: 'This link is not shared (any more).' }, 404);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json(creation satisfies SharedCreation);
  });

  app.get('/shared/:token/files/:index', async (c) => {
    const job = await findSharedJob(db, c.req.param('token'));
    const ids = ((job?.result ?? {}) as { files?: string[] }).files ?? [];
    const fileId = ids[Number(c.req.param('index'))];
    const [file] = job && fileId ? (await filesOfJobs(db, [job.id])).filter((f) => f.id === fileId) : [];
    if (!file) return c.json({ error: 'No such file' }, 404);
    // Revocable: asked about again on every view, so an image is gone once the link is turned off.
    return sendPrivateImage(c, {
      etag: fileEtag(file.id),
      contentType: file.contentType,
      read: () => storage.get(file.storageKey),
    });
  });

  return app;
}
