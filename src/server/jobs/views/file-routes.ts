// GET /api/files/:id: a job's stored input or output, to its owner only (another user's file is the
// same 404 as a missing one), kept by the browser but asked about again on every view
// (private-cache.ts). Outputs are only ever these URLs on our origin, never a provider's.
import { Hono } from 'hono';
import { TOOL_MESSAGES } from '../../../contract/tools';
import type { Auth } from '../../auth/auth';
import { sessionUser } from '../../auth/session';
import type { AppDb } from '../../db/client';
import { isUuid } from '../../db/ids';
import { fileEtag, sendPrivateImage } from '../../responses/private-cache';
import type { FileStorage } from '../../storage/storage';
import { findOwnFile } from '../queue/jobs-repository';

export type FileRoutesDeps = { db: AppDb; auth: Auth; storage: FileStorage };

export function fileRoutes({ db, auth, storage }: FileRoutesDeps) {
  const app = new Hono();

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
      read: () => storage.get(file.storageKey),
    });
  });

  return app;
}
