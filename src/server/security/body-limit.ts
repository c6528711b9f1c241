// Request bodies are bounded before anyone reads them. Tool calls carry images and have their own,
// larger limit (tools/routes.ts); every other API body (sign-in, purchases, webhooks, which embed
// at most a 256 kB inline input) fits in 1 MB.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { TOOLS } from '../../contract/tools';

export const API_BODY_LIMIT = 1024 * 1024;

const TOOL_PATHS = new Set(TOOLS.map((tool) => `/api${tool.apiPath}`));

/**
 * The 413 answer. The rest of the body is never read, so the connection cannot carry another
 * request: say `Connection: close` (Node then closes it after the answer), or a browser would send
 * its next request on a socket that is about to close and see it fail.
 */
export function bodyTooLarge(c: Context, body: Record<string, unknown> = {}) {
  c.header('Connection', 'close');
  return c.json({ ...body, error: 'body: the request is too large' }, 413);
}

export function apiBodyLimit(): MiddlewareHandler {
  const limit = bodyLimit({ maxSize: API_BODY_LIMIT, onError: (c) => bodyTooLarge(c) });
  return (c, next) => (TOOL_PATHS.has(c.req.path) ? next() : limit(c, next));
}
