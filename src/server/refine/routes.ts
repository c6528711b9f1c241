// Refining a cut-out by hand over HTTP (issue 58 item 1, decision 082): the result's mask to start
// from, and a new version from an edited one. The owner only (a session or their key); anyone
// else's job is a 404, as a missing one is.
import { type Context, Hono } from 'hono';
import { INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../contract/input-limits';
import { TOOL_MESSAGES } from '../../contract/tools';
import { describeRoute } from '../api-docs/describe-route';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import { fileEtag, sendPrivateImage } from '../responses/private-cache';
import { bodyTooLarge, limitBody } from '../security/body-limit';
import { MASK_OPERATION, REFINE_OPERATION } from './api-docs';
import { checkedMask, type RefineDeps, RefineRefusal, refinableJob, refine } from './refine-service';

export type RefineRoutesDeps = RefineDeps & { auth: Auth };

/** The body's `mask`: a JSON field (data URL or base64) or a multipart part (a file, or that text). */
async function maskField(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'multipart/form-data') {
    const form = await request.formData().catch(() => {
      throw new RefineRefusal(
        400,
        'body: is not valid multipart/form-data (check the boundary and that every part is complete)',
      );
    });
    const [part, ...more] = form.getAll('mask');
    if (more.length > 0) throw new RefineRefusal(400, `mask: must be one file, not ${more.length + 1}`);
    return typeof part === 'string' || part === undefined ? part : Buffer.from(await part.arrayBuffer());
  }
  if (type !== '' && type !== 'application/json')
    throw new RefineRefusal(400, `body: must be application/json or multipart/form-data, not ${type}`);
  const body = (await request.json().catch(() => null)) as { mask?: unknown } | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RefineRefusal(400, 'body: must be a JSON object with the field mask');
  return body.mask;
}

/**
 * The route's answer, or its refusal as `{ error }` with its status. Not the app's onError: a
 * sub-app's error handler wraps its handlers, and the document would no longer see describeRoute.
 */
async function answered(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RefineRefusal) return c.json({ error: error.message }, error.status);
    throw error;
  }
}

export function refineRoutes(deps: RefineRoutesDeps) {
  const { db, auth, storage } = deps;
  const app = new Hono();

  app.get('/creations/:jobId/mask', describeRoute(MASK_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    return answered(c, async () => {
      const { matte } = await refinableJob(db, user.id, c.req.param('jobId')).catch((error) => {
        // No mask to give: as missing as another account's.
        if (error instanceof RefineRefusal && error.status === 409) throw new RefineRefusal(404, error.message);
        throw error;
      });
      return sendPrivateImage(c, {
        etag: fileEtag(matte.id),
        contentType: matte.contentType,
        read: () => storage.get(matte.storageKey),
      });
    });
  });

  app.post(
    '/creations/:jobId/refine',
    describeRoute(REFINE_OPERATION),
    // A mask is an image as large as a tool call's (security/tool-call-paths.ts lets it past the API's 1 MB).
    limitBody(TOOL_BODY_MAX_BYTES, (c) => bodyTooLarge(c, { error: INPUT_MESSAGES.requestTooLarge })),
    async (c) => {
      const user = await sessionUser(auth, c);
      if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
      return answered(c, async () => {
        const { job, matte } = await refinableJob(db, user.id, c.req.param('jobId'));
        const mask = checkedMask(await maskField(c.req.raw), { width: matte.width ?? 0, height: matte.height ?? 0 });
        return c.json(await refine(deps, job, matte, mask), 201);
      });
    },
  );

  return app;
}
