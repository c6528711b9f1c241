// API answers in JSON travel gzipped when they are big enough for it to pay (job lists, exports);
// small ones (a balance, an error) go as they are, where the gzip header would outweigh the
// saving. Hono's compress middleware decides by Content-Length, which c.json() does not set, so
// the JSON is measured here first. Images and other binary answers pass untouched.
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

/** Below this many bytes compressing costs more than it saves. */
export const COMPRESS_JSON_ABOVE_BYTES = 1024;

export function compressJson(): MiddlewareHandler {
  const gzip = compress({ threshold: COMPRESS_JSON_ABOVE_BYTES, contentTypeFilter: /^application\/json/ });
  return (c, next) =>
    gzip(c, async () => {
      await next();
      const isJson = c.res.headers.get('Content-Type')?.startsWith('application/json');
      if (!isJson || c.res.headers.has('Content-Length') || c.req.method === 'HEAD') return;
      const bytes = await c.res.arrayBuffer();
      const sized = new Response(bytes, c.res);
      sized.headers.set('Content-Length', String(bytes.byteLength));
      c.res = sized;
    });
}
