// How a browser may keep a user's own answers (issue 36): their JSON (jobs, creations, purchases, a
// shared creation) is never stored; their images are kept but asked about again on every view
// (no-cache with an ETag), so a deleted or unshared image is gone at once and a kept one costs a 304.
import type { Context } from 'hono';

export const PRIVATE_JSON_CACHE = 'no-store';

/** Stored files never change under their id: the id (and what is made of it) is the ETag. */
export const fileEtag = (fileId: string, variant = 'original') => `"${variant}-${fileId}"`;

/** Whether If-None-Match names this ETag (a list, weak or strong, or `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '');
    return bare === '*' || bare === etag;
  });
}

/**
 * A private image: a 304 when the browser already holds this ETag, without reading the bytes
 * (`read` runs only otherwise; null when they are gone, answered 404).
 */
export async function sendPrivateImage(
  c: Context,
  options: { etag: string; contentType: string; read: () => Promise<Buffer | null> },
) {
  const headers = { 'Cache-Control': 'private, no-cache', ETag: options.etag, 'X-Content-Type-Options': 'nosniff' };
  if (matchesIfNoneMatch(c.req.header('if-none-match'), options.etag)) return c.body(null, 304, headers);
  const bytes = await options.read();
  if (!bytes) return c.json({ error: 'No such file' }, 404);
  return c.body(new Uint8Array(bytes), 200, {
    ...headers,
    'Content-Type': options.contentType,
    'Content-Length': String(bytes.length),
  });
}
