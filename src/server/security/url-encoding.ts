// A request whose path or query has broken percent-encoding (`/api/jobs/%`, `?cursor=%E0%A4%A`) was
// made by hand or cut short: no page or API of ours makes one. Hono itself decodes such a path
// leniently (it keeps the broken escape as it is), so nothing throws, but a half-decoded address
// is never what the caller meant: the API answers it with 400 before any route reads it, and the
// web app's pages with its not-found page (pages/spa.ts). Issue 37.
import type { MiddlewareHandler } from 'hono';
import { isWellEncoded } from '../../contract/url-encoding';

export const BROKEN_URL_ENCODING_ERROR = 'The address has broken percent-encoding (a lone % or a cut character).';

/** True when the path or the query of `url` (a request's full URL, as sent) has broken percent-encoding. */
export function hasBrokenUrlEncoding(url: string): boolean {
  if (!url.includes('%')) return false;
  const { pathname, search } = new URL(url);
  return !isWellEncoded(pathname) || !isWellEncoded(search);
}

/** Answers a request with broken percent-encoding with 400, before any route reads it. */
export function rejectBrokenUrlEncoding(): MiddlewareHandler {
  return async (c, next) => {
    if (hasBrokenUrlEncoding(c.req.url)) return c.json({ error: BROKEN_URL_ENCODING_ERROR }, 400);
    await next();
  };
}
