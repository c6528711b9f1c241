// Request bodies are bounded before anyone reads them. Tool calls carry images and have their own,
// larger limit (jobs/request/tool-call-routes.ts); every other API body (sign-in, purchases,
// webhooks, which embed at most a 256 kB inline input) fits in 1 MB.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { TOOLS } from '../../contract/tools';

export const API_BODY_LIMIT = 1024 * 1024;

const TOOL_PATHS = new Set(TOOLS.map((tool) => `/api${tool.apiPath}`));

/**
 * The 413 answer (a tool call's names the image limit: `body.error`). The rest of the body is never read, so the connection cannot carry another
 * request: say `Connection: close` (Node then closes it after the answer), or a browser would send
 * its next request on a socket that is about to close and see it fail.
 */
export function bodyTooLarge(c: Context, body: Record<string, unknown> = {}) {
  c.header('Connection', 'close');
  return c.json({ error: 'This request is too large.', ...body }, 413);
}

/**
 * Hono's bodyLimit, judged from the headers when they tell. Hono's reads `c.req.raw.body` first,
 * which on @hono/node-server builds a whole web Request around the socket's stream for every
 * request, GETs too, and then the body is read through web streams instead of node-server's
 * direct read (a health request's thread time 1.04-1.06 -> 0.98-1.03 ms in paired `npm run
 * bench` runs; a tool call's within the noise). A GET or HEAD body is never read: no limit. A
 * body with a Content-Length (and no Transfer-Encoding) is judged by it, as Hono does; anything
 * else (chunked, or a Request made in-process without the header) is counted as it is read, by
 * Hono's own.
 */
export function limitBody(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const headers = c.req.raw.headers;
    const length = headers.get('content-length');
    if (length === null || headers.has('transfer-encoding')) return counted(c, next);
    return Number.parseInt(length, 10) > maxSize ? Promise.resolve(onError(c)) : next();
  };
}

export function apiBodyLimit(): MiddlewareHandler {
  const limit = limitBody(API_BODY_LIMIT, (c) => bodyTooLarge(c));
  return (c, next) => (TOOL_PATHS.has(c.req.path) ? next() : limit(c, next));
}
