// What a request with `Authorization: Bearer <key>` may do (issue 39). A key acts as its owner on
// the ten tool calls, refining a cut-out (decision 082) and the reads of jobs, files, creations (a
// cut-out's mask too) and the profile (balance): the routes
// themselves read the key through the session reader (auth/session.ts), as they read a cookie.
// Everything else (keys, the account, purchases, export, sign-in) needs the website's session:
// a stolen key cannot lock its owner out, buy with their card or take their data.
import type { MiddlewareHandler } from 'hono';
import { API_KEY_MESSAGES, RATE_LIMIT_HEADERS } from '../../contract/api-keys';
import { hasBearerCredential } from '../auth/api-key-credential';
import { rateLimitValues, setRateLimitHeaders } from '../rate-limit/tool-call-window';
import { replaceWithJson } from '../responses/replace-answer';
import { isRefinePath, isToolCallPath } from '../security/tool-call-paths';

/** Batches (decision 062): made, fed an image at a time (a tool call), read and downloaded with a key too. */
const BATCH_CREATE = '/api/batches';
const KEY_READS = [
  /^\/api\/jobs\/[^/]+$/,
  /^\/api\/files\/[^/]+$/,
  /^\/api\/creations$/,
  /^\/api\/creations\/[^/]+\/mask$/,
  /^\/api\/profile$/,
  /^\/api\/batches\/[^/]+(\/download)?$/,
  // Recipes (decision 083): listed, saved and run with a key too; deleted with a session only.
  /^\/api\/recipes$/,
  /^\/api\/recipe-runs\/[^/]+$/,
];
const RECIPE_SAVE = '/api/recipes';
/** Reads anyone may make (prices, packages, what the server offers): a client that sends its key on every request reads them too. */
const PUBLIC_READS = new Set(['/api/tools', '/api/packages', '/api/config']);

/** Whether a key may make this request (the path as the server sees it, with /api). */
export function keyMayCall(method: string, path: string): boolean {
  if (method === 'POST')
    return isToolCallPath(path) || path === BATCH_CREATE || path === RECIPE_SAVE || isRefinePath(path);
  if (method === 'GET' || method === 'HEAD') return PUBLIC_READS.has(path) || KEY_READS.some((read) => read.test(path));
  return false;
}

/**
 * Refuses a key where it may not act (403), says that a key was refused when the route answers
 * 401 (an unknown, revoked or malformed key), and adds the RateLimit headers to the answers of a
 * key's reads. Mounted before better-auth's routes and the Origin check; webhooks, which their
 * senders sign, are mounted before it.
 */
export function apiKeyGate(options: { callsPerMinute: number }): MiddlewareHandler {
  return async (c, next) => {
    const headers = c.req.raw.headers;
    if (!hasBearerCredential(headers)) return next();
    if (!keyMayCall(c.req.method, c.req.path)) return c.json({ error: API_KEY_MESSAGES.sessionRequired }, 403);
    await next();
    if (c.res.status === 401) {
      // The route's sentence asks to sign in: to a program with a key, say what is wrong instead.
      const toolCall = isToolCallPath(c.req.path);
      replaceWithJson(c, 401, { ...(toolCall ? { success: false } : {}), error: API_KEY_MESSAGES.invalidKey });
      return;
    }
    // The window the route's session read found with the key's owner (auth/session.ts). A tool call
    // has set its own headers (the window it counted); a read answers the window it read.
    const read = c.get('keyRateWindow');
    if (read && !c.res.headers.has(RATE_LIMIT_HEADERS.limit))
      setRateLimitHeaders(c, rateLimitValues(read.window, options.callsPerMinute));
  };
}

/** Whether `path` is the API's (/api and under it), where apiKeyGate decides. */
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Outside /api nothing is a key's to do (the local checkout's pay, cancel and view, the pages, the
 * dev mailbox): a request with a key is refused there as apiKeyGate refuses it (403, the same
 * sentence), whatever is mounted, since those routes read the key as a session too (issue 53).
 * Mounted at the root before every route; under /api, apiKeyGate decides (webhooks and health come
 * before it there).
 */
export function apiKeyGateOutsideApi(): MiddlewareHandler {
  return async (c, next) => {
    if (isApiPath(c.req.path) || !hasBearerCredential(c.req.raw.headers) || keyMayCall(c.req.method, c.req.path))
      return next();
    return c.json({ error: API_KEY_MESSAGES.sessionRequired }, 403);
  };
}
