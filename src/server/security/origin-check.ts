// Every state-changing request must come from our own pages: its Origin header must be the app's
// origin. (better-auth checks its own routes the same way; webhooks, signed by their senders,
// are mounted outside this check.)
import type { MiddlewareHandler } from 'hono';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(trustedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(trustedOrigins);
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && !allowed.has(c.req.header('origin') ?? '')) {
      return c.json({ error: 'This request must come from the Picture Palette app (missing or foreign Origin).' }, 403);
    }
    await next();
  };
}
