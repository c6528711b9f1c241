// Batches over HTTP (issue 40, decision 062): POST /api/batches makes the batch (its tool and size,
// nothing charged), POST /api/batches/:id/images sends one image as its own tool call (the tool's
// rules, price and refusals; answered 202 at once, never waited for), GET reads it with each image's
// state, /download streams its results as a zip, DELETE removes it once nothing of it runs.
import { Hono } from 'hono';
import { BATCH_IMAGE_FIELDS, BATCH_MESSAGES, BATCH_PATHS, isBatchTool, MAX_BATCH_IMAGES } from '../../contract/batches';
import { INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../contract/input-limits';
import type { ToolRefusal } from '../../contract/tool-responses';
import { TOOL_MESSAGES, toolById } from '../../contract/tools';
import { describeRoute } from '../api-docs/describe-route';
import { sessionUser } from '../auth/session';
import { thumbnailKey } from '../creations/thumbnails';
import { errorChain } from '../db/connection-errors';
import { isUuid } from '../db/ids';
import { removeFiles } from '../jobs/job-files';
import { readToolCallBody } from '../jobs/request/tool-call-body';
import { countedCaller, refusalAnswer, type ToolRoutesDeps } from '../jobs/request/tool-call-routes';
import { callTool, standingRefusal } from '../jobs/request/tool-call-service';
import { unitPrice } from '../pricing/prices';
import { PRIVATE_JSON_CACHE } from '../responses/private-cache';
import { bodyTooLarge, limitBody } from '../security/body-limit';
import {
  ADD_BATCH_IMAGE_OPERATION,
  CREATE_BATCH_OPERATION,
  DELETE_BATCH_OPERATION,
  DOWNLOAD_BATCH_OPERATION,
  GET_BATCH_OPERATION,
} from './api-docs';
import { batchZip } from './batch-download';
import { areBatchNames, batchItemOf, isBatchName, queuedImageAnswer, refusesTheImage } from './batch-image-request';
import { deleteFinishedBatch, findOwnBatch, insertBatch, jobsOfBatch, noteRefusedImage } from './batch-repository';
import { viewBatch } from './batch-view';

export type BatchRoutesDeps = Omit<ToolRoutesDeps, 'waitMs'>;

/** PostgreSQL's foreign_key_violation: the batch was deleted while an image of it was being charged. */
const isBatchGone = (error: unknown) => [...errorChain(error)].some((e) => e.code === '23503');

const notFound = { error: BATCH_MESSAGES.notFound };

export function batchRoutes(deps: BatchRoutesDeps) {
  const { db, auth, storage } = deps;
  const providerFor = (tool: Parameters<typeof deps.inference.providerFor>[0]) => deps.inference.providerFor(tool).name;
  const app = new Hono();

  app.post(BATCH_PATHS.create, describeRoute(CREATE_BATCH_OPERATION), async (c) => {
    const counted = await countedCaller(c, deps);
    if (counted instanceof Response) return counted;
    const standing = standingRefusal(counted.user, counted.caller);
    if (standing) return c.json({ error: standing.error }, standing.status);
    const body = (await c.req.json().catch(() => null)) as { tool?: unknown; size?: unknown; names?: unknown } | null;
    if (!body || typeof body !== 'object') return c.json({ error: 'body: must be a JSON object' }, 400);
    if (typeof body.tool !== 'string' || !isBatchTool(body.tool))
      return c.json({ error: BATCH_MESSAGES.notBatchTool }, 400);
    const size = body.size;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_BATCH_IMAGES)
      return c.json({ error: BATCH_MESSAGES.size }, 400);
    const names = body.names;
    if (names !== undefined && !areBatchNames(names, size)) return c.json({ error: BATCH_MESSAGES.names }, 400);
    // Not one image affordable: said now, before any image is read (each image is charged on its own).
    const tokens = counted.caller?.tokens ?? 0;
    if (tokens < unitPrice(body.tool, providerFor(body.tool)))
      return c.json({ error: TOOL_MESSAGES.notEnoughTokens, balance: tokens }, 402);
    const batch = await insertBatch(db, { userId: counted.user.id, tool: body.tool, size, names });
    return c.json(await viewBatch({ ...deps, providerFor }, batch), 201);
  });

  app.post(
    '/batches/:id/images',
    describeRoute(ADD_BATCH_IMAGE_OPERATION),
    limitBody(TOOL_BODY_MAX_BYTES, (c) => bodyTooLarge(c, { success: false, error: INPUT_MESSAGES.requestTooLarge })),
    async (c) => {
      const counted = await countedCaller(c, deps);
      if (counted instanceof Response) return counted;
      const { user, caller } = counted;
      const id = c.req.param('id');
      const batch = isUuid(id) ? await findOwnBatch(db, id, user.id) : null;
      if (!batch || !isBatchTool(batch.tool)) return c.json({ success: false, ...notFound } satisfies ToolRefusal, 404);
      const tool = toolById(batch.tool);
      const read = await readToolCallBody(c.req, tool, BATCH_IMAGE_FIELDS);
      if ('error' in read) return c.json({ success: false, error: read.error } satisfies ToolRefusal, read.status);
      const { item: rawItem, name, ...toolBody } = read.body;
      const item = batchItemOf(rawItem, batch.size);
      if (item === null)
        return c.json({ success: false, error: BATCH_MESSAGES.item(batch.size) } satisfies ToolRefusal, 400);
      if (!isBatchName(name)) return c.json({ success: false, error: BATCH_MESSAGES.name } satisfies ToolRefusal, 400);

      const outcome = await callTool(deps, {
        user,
        caller,
        tool,
        body: toolBody,
        rawBody: read.canonical,
        signal: c.req.raw.signal,
        batch: { id: batch.id, item, name: name.trim() },
      }).catch((error: unknown) => {
        if (isBatchGone(error)) return null;
        throw error;
      });
      if (outcome === null) return c.json({ success: false, ...notFound } satisfies ToolRefusal, 404);
      if (outcome.kind === 'refused') {
        if (refusesTheImage(outcome))
          await noteRefusedImage(db, batch.id, { item, name: name.trim(), error: outcome.error });
        return refusalAnswer(c, outcome);
      }
      if (outcome.isNew && !outcome.handedOver) deps.signals?.queued();
      return c.json(await queuedImageAnswer(db, user.id, { jobId: outcome.jobId, item }), 202);
    },
  );

  app.get('/batches/:id', describeRoute(GET_BATCH_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const batch = isUuid(id) ? await findOwnBatch(db, id, user.id) : null;
    if (!batch) return c.json(notFound, 404);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json(await viewBatch({ ...deps, providerFor }, batch));
  });

  app.get('/batches/:id/download', describeRoute(DOWNLOAD_BATCH_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const batch = isUuid(id) ? await findOwnBatch(db, id, user.id) : null;
    if (!batch || !isBatchTool(batch.tool)) return c.json(notFound, 404);
    const batchJobs = await jobsOfBatch(db, batch.id);
    if (!batchJobs.some((job) => job.status === 'succeeded'))
      return c.json({ error: BATCH_MESSAGES.nothingToDownload }, 409);
    const day = batch.createdAt.toISOString().slice(0, 10);
    return c.body(batchZip({ db, storage }, batch.tool, batch, batchJobs), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${batch.tool}-batch-${day}.zip"`,
      'Cache-Control': 'no-store',
    });
  });

  app.delete('/batches/:id', describeRoute(DELETE_BATCH_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    const deleted = isUuid(id) ? await deleteFinishedBatch(db, id, user.id) : null;
    if (deleted === null) return c.json(notFound, 404);
    if (deleted === 'running') return c.json({ error: BATCH_MESSAGES.stillRunning }, 409);
    await removeFiles(storage, [...deleted, ...deleted.map((f) => ({ storageKey: thumbnailKey(f.id) }))]);
    return c.body(null, 204);
  });

  return app;
}
