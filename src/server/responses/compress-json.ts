// API answers in JSON travel gzipped when they are big enough for it to pay (job lists, exports);
// small ones (a balance, an error) go as they are, where the gzip header would outweigh the
// saving. Hono's compress middleware decides by Content-Length, which c.json() does not set: here
// c.json() sets it from the text it writes (nothing read back), and an answer made some other way
// (better-auth's) is measured by reading it. Images and other binary answers pass untouched.
import type { Context, MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

/** Below this many bytes compressing costs more than it saves. */
export const COMPRESS_JSON_ABOVE_BYTES = 1024;

type HeaderRecord = Record<string, string | string[]>;
type Body = (text: string, arg?: ResponseInit | number, headers?: HeaderRecord) => Response;

/**
 * `c.json` that also sets Content-Length. Reading an answer back to size it cost every API request
 * a web stream and a second Response (a sixth of a health request's thread time, issue 20).
 */
function jsonWithLength(c: Context) {
  const body = c.body as Body;
  return (object: unknown, arg?: ResponseInit | number, headers?: HeaderRecord) => {
    const text = JSON.stringify(object);
    return body(text, arg, {
      'Content-Type': 'application/json',
      ...headers,
      'Content-Length': String(Buffer.byteLength(text)),
    });
  };
}

export function compressJson(): MiddlewareHandler {
  const gzip = compress({ threshold: COMPRESS_JSON_ABOVE_BYTES, contentTypeFilter: /^application\/json/ });
  return (c, next) =>
    gzip(c, async () => {
      c.json = jsonWithLength(c) as unknown as Context['json'];
      await next();
      const isJson = c.res.headers.get('Content-Type')?.startsWith('application/json');
      if (!isJson || c.res.headers.has('Content-Length') || c.req.method === 'HEAD') return;
      const bytes = await c.res.arrayBuffer();
      const sized = new Response(bytes, c.res);
      sized.headers.set('Content-Length', String(bytes.byteLength));
      c.res = sized;
    });
}
