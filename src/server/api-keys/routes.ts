// /api/keys: a signed-in user makes, lists and revokes their API keys (issue 39). These need the
// website's session: a key cannot manage keys (api-keys/key-gate.ts answers 403 before these run).
import { Hono } from 'hono';
import { ACCOUNT_MESSAGES } from '../../contract/accounts';
import { API_KEY_MESSAGES, CREATE_API_KEY_REQUEST } from '../../contract/api-keys';
import { describeRoute } from '../api-docs/describe-route';
import { type SessionReader, sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { isUuid } from '../db/ids';
import { readOrCreateProfile } from '../profiles/profiles';
import { CREATE_API_KEY_OPERATION, LIST_API_KEYS_OPERATION, REVOKE_API_KEY_OPERATION } from './api-docs';
import { createApiKey, listApiKeys, revokeApiKey } from './repository';

export type ApiKeyRoutesDeps = { db: AppDb; auth: { readSessionUser: SessionReader } };

export function apiKeyRoutes({ db, auth }: ApiKeyRoutesDeps) {
  const app = new Hono();

  app.post('/keys', describeRoute(CREATE_API_KEY_OPERATION), async (c) => {
    const current = await sessionUser(auth, c);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    const body: unknown = await c.req.json().catch(() => null);
    // Not a JSON object at all: no name either, and that is what the user can act on.
    const parsed = CREATE_API_KEY_REQUEST.safeParse(typeof body === 'object' && body !== null ? body : {});
    if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message ?? API_KEY_MESSAGES.nameEmpty }, 400);
    // The same account a tool call accepts: verified, and not suspended (fraud or dispute).
    const profile = await readOrCreateProfile(db, current.id);
    if (!profile) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    if (profile.isFraudulent || profile.isDispute) return c.json({ error: API_KEY_MESSAGES.suspended }, 403);
    if (!current.emailVerified) return c.json({ error: API_KEY_MESSAGES.unverified }, 403);
    const created = await createApiKey(db, current.id, parsed.data.name.trim());
    if (created === 'too-many') return c.json({ error: API_KEY_MESSAGES.tooMany }, 409);
    c.header('Cache-Control', 'no-store');
    return c.json(created, 201);
  });

  app.get('/keys', describeRoute(LIST_API_KEYS_OPERATION), async (c) => {
    const current = await sessionUser(auth, c);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', 'no-store');
    return c.json({ keys: await listApiKeys(db, current.id) });
  });

  app.delete('/keys/:id', describeRoute(REVOKE_API_KEY_OPERATION), async (c) => {
    const current = await sessionUser(auth, c);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    const id = c.req.param('id');
    if (!isUuid(id) || !(await revokeApiKey(db, current.id, id))) {
      return c.json({ error: API_KEY_MESSAGES.notFound }, 404);
    }
    return c.body(null, 204);
  });

  return app;
}
