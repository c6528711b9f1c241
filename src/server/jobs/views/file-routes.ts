// GET /api/files/:id: a job's stored input or output, to its owner only (another user's file is the
// same 404 as a missing one), kept by the browser but asked about again on every view
// (private-cache.ts). Outputs are only ever these URLs on our origin, never a provider's.
// `?format=png|jpeg|webp|avif` answers the image in that format (the page's "Format" choice).
import { Hono } from 'hono';
import {
  formatOfType,
  OUTPUT_FORMAT_TYPES,
  OUTPUT_FORMATS,
  OUTPUT_MESSAGES,
  type OutputFormat,
} from '../../../contract/output-files';
import { TOOL_MESSAGES } from '../../../contract/tools';
import { describeRoute } from '../../api-docs/describe-route';
import type { Auth } from '../../auth/auth';
import { sessionUser } from '../../auth/session';
import type { AppDb } from '../../db/client';
import { isUuid } from '../../db/ids';
import { convertedFile, TransparentAsJpegError } from '../../images/finishing/converted-file';
import { fileEtag, sendPrivateImage } from '../../responses/private-cache';
import type { FileStorage } from '../../storage/storage';
import { findOwnFile } from '../queue/jobs-repository';
import { GET_FILE_OPERATION } from './api-docs';

export type FileRoutesDeps = { db: AppDb; auth: Auth; storage: FileStorage };

export function fileRoutes({ db, auth, storage }: FileRoutesDeps) {
  const app = new Hono();

  app.get('/files/:id', describeRoute(GET_FILE_OPERATION), async (c) => {
    const user = await sessionUser(auth, c.req.raw.headers);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: 'No such file' }, 404);
    // Another user's file is answered exactly like a missing one.
    const file = await findOwnFile(db, id, user.id);
    if (!file) return c.json({ error: 'No such file' }, 404);
    const format = c.req.query('format');
    if (format !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      return c.json({ error: `format: must be one of ${OUTPUT_FORMATS.join(', ')}` }, 400);
    }
    if (format && format !== formatOfType(file.contentType)) {
      const wanted = format as OutputFormat;
      try {
        return await sendPrivateImage(c, {
          etag: fileEtag(file.id, wanted),
          contentType: OUTPUT_FORMAT_TYPES[wanted],
          read: async () => {
            const bytes = await storage.get(file.storageKey);
            return bytes ? convertedFile(bytes, wanted) : null;
          },
        });
      } catch (error) {
        if (error instanceof TransparentAsJpegError) return c.json({ error: OUTPUT_MESSAGES.jpegNeedsBackground }, 400);
        throw error;
      }
    }
    return sendPrivateImage(c, {
      etag: fileEtag(file.id),
      contentType: file.contentType,
      read: () => storage.get(file.storageKey),
    });
  });

  return app;
}
