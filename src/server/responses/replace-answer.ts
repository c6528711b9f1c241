// A middleware that answers in place of the route, after `next()`. Hono's `c.res = answer` copies
// the replaced answer's headers over the new one's, Content-Length among them: a refused key's 401
// said 27 bytes for its 79 (issue 52), so clients read half a sentence and the keep-alive
// connection was spoiled for the next request. The new answer here carries its own.
import type { Context } from 'hono';

/**
 * Answers `body` as JSON with `status` instead of the route's answer: the route's headers are kept
 * (RateLimit, Vary, Cache-Control) but those that describe its body (Content-Length, -Type, -Encoding).
 */
export function replaceWithJson(c: Context, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const headers = new Headers();
  for (const [name, value] of c.res.headers) if (!name.startsWith('content-')) headers.append(name, value);
  headers.set('Content-Type', 'application/json');
  headers.set('Content-Length', String(Buffer.byteLength(text)));
  // Let go of the old answer first, so that Hono has no headers of it to copy.
  c.res = undefined;
  c.res = new Response(text, { status, headers });
}
