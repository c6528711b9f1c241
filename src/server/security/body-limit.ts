// Request bodies are bounded before anyone reads them. Tool calls (the ten tools' and a batch's
// images) carry images and have their own, larger limit (jobs/request/tool-call-routes.ts,
// batches/routes.ts); every other API body (sign-in, purchases, webhooks, which embed at most a
// 256 kB inline input) fits in 1 MB.
import type { Context, MiddlewareHandler } from 'hono';
import { isRefinePath, isToolCallPath } from './tool-call-paths';

export const API_BODY_LIMIT = 1024 * 1024;

/**
 * How much of a refused body is still read, and thrown away, before the 413 is answered, as a
 * multiple of the limit. A client still sending when the answer comes and the connection closes
 * (Node's fetch, curl) reports a failed upload ("fetch failed", EPIPE) and never shows the answer
 * (issue 52); one whose body was read to its end reads the answer, and may send its next request
 * on the same connection. A body larger than this is answered at once and its connection closed:
 * its client may not see the answer, the price of not reading without end.
 */
const DRAIN_LIMIT_FACTOR = 4;

/** The 413's sentence, but a tool call's (which names the image limit: INPUT_MESSAGES.requestTooLarge). */
export const BODY_TOO_LARGE_MESSAGE = 'This request is too large.';

/** The 413 answer (a tool call's names the image limit: `body.error`). */
export function bodyTooLarge(c: Context, body: Record<string, unknown> = {}) {
  return c.json({ error: BODY_TOO_LARGE_MESSAGE, ...body }, 413);
}

type BodyReader = ReadableStreamDefaultReader<Uint8Array>;

/** Reads and drops the rest of a refused body while `read` stays within `limit`: whether it came to its end. */
async function discardRest(reader: BodyReader, read: number, limit: number): Promise<boolean> {
  for (let total = read; ; ) {
    const { done, value } = await reader.read();
    if (done) return true;
    total += value.byteLength;
    if (total > limit) return false;
  }
}

/**
 * A body limit, judged from the headers when they tell. Hono's bodyLimit reads `c.req.raw.body`
 * first, which on @hono/node-server builds a whole web Request around the socket's stream for
 * every request, GETs too, and then the body is read through web streams instead of node-server's
 * direct read (a health request's thread time 1.04-1.06 -> 0.98-1.03 ms in paired `npm run bench`
 * runs; a tool call's within the noise). A GET or HEAD body is never read: no limit. A body with a
 * Content-Length (and no Transfer-Encoding) is judged by it; anything else (chunked, or a Request
 * made in-process without the header) is counted as it is read, and handed on read. A refused body
 * is read to its end, up to DRAIN_LIMIT_FACTOR times the limit, before `onError` answers.
 */
export function limitBody(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const drainLimit = DRAIN_LIMIT_FACTOR * maxSize;
  const refuse = async (c: Context, rest: { reader: BodyReader; read: number } | null) => {
    const drained = rest ? await discardRest(rest.reader, rest.read, drainLimit).catch(() => false) : false;
    const answer = await onError(c);
    // The rest of the body is never read, so the connection cannot carry another request: say so
    // (Node then closes it after the answer), or a browser would send its next request on a socket
    // that is about to close and see it fail.
    if (!drained) answer.headers.set('Connection', 'close');
    return answer;
  };
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const headers = c.req.raw.headers;
    const length = headers.get('content-length');
    if (length !== null && !headers.has('transfer-encoding')) {
      const declared = Number.parseInt(length, 10);
      if (!(declared > maxSize)) return next();
      const reader = declared <= drainLimit ? c.req.raw.body?.getReader() : undefined;
      return refuse(c, reader ? { reader, read: 0 } : null);
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let read = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (read > maxSize) return refuse(c, { reader, read });
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, read) });
    return next();
  };
}

/** The API's 1 MB limit, on every request but those that carry an image (tool calls, a refine's mask), which set their own. */
export function apiBodyLimit(): MiddlewareHandler {
  const limit = limitBody(API_BODY_LIMIT, (c) => bodyTooLarge(c));
  return (c, next) => (isToolCallPath(c.req.path) || isRefinePath(c.req.path) ? next() : limit(c, next));
}
