// GET /api/files/:id: a job's stored input or output, to its owner only (another user's file is the
// same 404 as a missing one), kept by the browser but asked about again on every view
// (private-cache.ts). Outputs are only ever these URLs on our origin, never a provider's.
// `?format=png|jpeg|webp|avif` answers the image in that format (the page's "Format" choice); so
// does an Accept that asks only for other image types than the stored one (else 406). Conversions
// are kept once made and bounded (images/finishing/stored-conversions.ts, issue 53).
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
import { TransparentAsJpegError } from '../../images/finishing/converted-file';
import {
  type ConversionOptions,
  ConversionRefusedError,
  storedConversions,
} from '../../images/finishing/stored-conversions';
import { fileEtag, sendPrivateImage } from '../../responses/private-cache';
import type { FileStorage } from '../../storage/storage';
import { findOwnFile } from '../queue/jobs-repository';
import { GET_FILE_OPERATION } from './api-docs';

export type FileRoutesDeps = {
  db: AppDb;
  auth: Auth;
  storage: FileStorage;
  /** The conversions' bounds; the defaults unless a test sets them. */
  conversions?: ConversionOptions;
};

export function fileRoutes({ db, auth, storage, conversions: bounds }: FileRoutesDeps) {
  const app = new Hono();
  const conversions = storedConversions({ db, storage, ...bounds });

  app.get('/files/:id', describeRoute(GET_FILE_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
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
    // The answer depends on Accept as well as the address.
    c.header('Vary', 'Accept');
    const stored = formatOfType(file.contentType);
    const wanted = format ? (format as OutputFormat) : formatForAccept(c.req.header('accept'), file.contentType);
    if (wanted === null) {
      return c.json({ error: notAcceptableMessage(file.contentType) }, 406);
    }
    if (wanted !== 'stored' && wanted !== stored) {
      try {
        return await sendPrivateImage(c, {
          etag: fileEtag(file.id, wanted),
          contentType: OUTPUT_FORMAT_TYPES[wanted],
          read: () => conversions.get(user.id, file, wanted),
        });
      } catch (error) {
        if (error instanceof ConversionRefusedError) {
          c.header('Retry-After', String(error.retryAfterSeconds));
          return c.json({ error: error.message }, error.status);
        }
        // Asked for by Accept, a JPEG that cannot be given is not acceptable; by `?format=`, a bad option.
        if (error instanceof TransparentAsJpegError)
          return c.json({ error: OUTPUT_MESSAGES.jpegNeedsBackground }, format ? 400 : 406);
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

/** The weight Accept gives `type`: its most specific range decides (type, then `image/*`, then `*\/*`); 0: not acceptable. */
function acceptWeight(ranges: { range: string; q: number }[], type: string): number {
  const main = `${type.split('/')[0]}/*`;
  for (const candidate of [type, main, '*/*']) {
    const matching = ranges.filter((r) => r.range === candidate);
    if (matching.length > 0) return Math.max(...matching.map((r) => r.q));
  }
  return 0;
}

/**
 * What an Accept header asks of a file stored as `storedType`: 'stored' when it takes that type (no
 * header, `*\/*`, `image/*` or the type itself, as a browser's <img> asks), else the format it
 * weighs most among those we convert to, or null when it takes none of them (406).
 */
export function formatForAccept(accept: string | undefined, storedType: string): 'stored' | OutputFormat | null {
  if (!accept?.trim()) return 'stored';
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    return { range, q: Number.isFinite(weight) ? weight : 0 };
  });
  if (acceptWeight(ranges, storedType) > 0) return 'stored';
  let best: { format: OutputFormat; q: number } | null = null;
  for (const format of OUTPUT_FORMATS) {
    const q = acceptWeight(ranges, OUTPUT_FORMAT_TYPES[format]);
    if (q > 0 && (!best || q > best.q)) best = { format, q };
  }
  return best?.format ?? null;
}

const notAcceptableMessage = (storedType: string) =>
  `This file is stored as ${storedType} and can also be given as ${OUTPUT_FORMATS.map((f) => OUTPUT_FORMAT_TYPES[f])
    .filter((type) => type !== storedType)
    .join(', ')}: Accept asks for none of these.`;
