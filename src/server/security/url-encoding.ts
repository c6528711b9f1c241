// A request whose path or query has broken percent-encoding (`/api/jobs/%`, `?cursor=%E0%A4%A`) was
// made by hand or cut short: no page or API of ours makes one. Hono itself decodes such a path
// leniently (it keeps the broken escape as it is), so nothing throws, but a half-decoded address
// is never what the caller meant: the API answers it with 400 before any route reads it, and the
// web app's pages with its not-found page (pages/spa.ts). Issue 37. A well-encoded control character
// (`%00`) names nothing of ours either, and a NUL failed the query it reached (a 500): the API answers
// it with 400 too (issue 52).
import type { MiddlewareHandler } from 'hono';
import { isStorableText } from '../../contract/text';
import { isWellEncoded, tryDecodeURIComponent } from '../../contract/url-encoding';

export const BROKEN_URL_ENCODING_ERROR = 'The address has broken percent-encoding (a lone % or a cut character).';
/** A path or query that decodes to a control character (`%00`): no address of ours has one, and a NUL fails a query. */
export const CONTROL_CHARACTER_URL_ERROR = 'The address contains a control character (such as %00).';

/** True when the path or the query of `url` (a request's full URL, as sent) has broken percent-encoding. */
export function hasBrokenUrlEncoding(url: string): boolean {
  if (!url.includes('%')) return false;
  const { pathname, search } = new URL(url);
  return !isWellEncoded(pathname) || !isWellEncoded(search);
}

/** True when the path or the query of `url` (well encoded) decodes to text that cannot be stored (contract/text.ts). */
export function hasEncodedControlCharacter(url: string): boolean {
  if (!url.includes('%')) return false;
  const { pathname, search } = new URL(url);
  return [pathname, search].some((part) => !isStorableText(tryDecodeURIComponent(part) ?? ''));
}

/** Answers a request with broken percent-encoding, or an encoded control character, with 400 before any route reads it. */
export function rejectBrokenUrlEncoding(): MiddlewareHandler {
  return async (c, next) => {
    if (hasBrokenUrlEncoding(c.req.url)) return c.json({ error: BROKEN_URL_ENCODING_ERROR }, 400);
    if (hasEncodedControlCharacter(c.req.url)) return c.json({ error: CONTROL_CHARACTER_URL_ERROR }, 400);
    await next();
  };
}
