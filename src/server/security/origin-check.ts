// Every state-changing request must come from our own pages: its Origin header must be the app's
// origin. (better-auth checks its own routes the same way; webhooks, signed by their senders,
// are mounted outside this check.)
//
// A request with an API key (`Authorization: Bearer ...`) is exempt: a browser never attaches that
// header by itself (a cookie it does), so a foreign page cannot make one act as the user: no CSRF.
// Such a request is authenticated by the key alone (auth/session.ts ignores its cookies), and
// api-keys/key-gate.ts, mounted before this check, lets it reach only the routes a key may call.
//
// A request with no credential at all (no key, no cookie) is exempt too: it cannot act as anyone, so
// the route answers it, 401 where a key or a session is needed (decision 067): a program that forgot
// its key hears that, not that it should have come from our pages.
import type { MiddlewareHandler } from 'hono';
import { hasBearerCredential } from '../auth/api-key-credential';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(trustedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(trustedOrigins);
  return async (c, next) => {
    if (
      !SAFE_METHODS.has(c.req.method) &&
      !allowed.has(c.req.header('origin') ?? '') &&
      !hasBearerCredential(c.req.raw.headers) &&
      c.req.header('cookie') !== undefined
    ) {
      return c.json({ error: 'This request must come from the Picture Palette app (missing or foreign Origin).' }, 403);
    }
    await next();
  };
}
