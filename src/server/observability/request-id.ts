// A reference for every request (issue 57): each answer carries `X-Request-Id`, the caller's when it
// sent a sane one (a proxy's or a client's own, so both ends log the same id), else a new one; every
// line logged while the request is served carries it (log.ts withLogFields); and every 5xx JSON
// answer carries it as `reference` (the app's own 500 says it in its sentence too: app.ts), so a
// user can quote it to support and the operator finds the request's lines.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { withLogFields } from '../log';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A caller's id we keep: short, and nothing that could break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's reference (X-Request-Id). */
    requestId: string;
  }
}

/** The caller's id when it is sane, else a new one. */
export const requestIdOf = (given: string | undefined): string =>
  given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();

/** Mounted first, so that every answer (a 404, the app's 500) passes it. */
export function requestIds(): MiddlewareHandler {
  return async (c, next) => {
    const id = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await withLogFields({ requestId: id }, next);
    if (c.res.status >= 500) c.res = await withReference(c.res, id);
    c.header(REQUEST_ID_HEADER, id);
  };
}

/**
 * A 5xx JSON answer with `error` gets the id as `reference` beside its sentence, which stays as the
 * route wrote it (a failed job's 502 says the spec's words). Every route's 5xx at once; any other
 * answer (a page, an empty body, a compressed one) is left as it is. Only failures pay the re-read.
 */
async function withReference(response: Response, id: string): Promise<Response> {
  const json = response.headers.get('content-type')?.startsWith('application/json');
  if (!json || response.headers.has('content-encoding') || response.bodyUsed) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return response;
  if (typeof (body as { error?: unknown }).error !== 'string' || 'reference' in body) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, reference: id }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
