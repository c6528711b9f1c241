// GET /api/webhook-secret and POST /api/webhook-secret/rotate: the signing secret of the caller's
// webhook deliveries, for a browser session (an API key cannot read or change it: refused before
// these routes by the key middleware). Answers contract/webhooks.ts WEBHOOK_SECRET.
import { Hono } from 'hono';
import { TOOL_MESSAGES } from '../../contract/tools';
import type { WebhookSecret } from '../../contract/webhooks';
import { describeRoute } from '../api-docs/describe-route';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { PRIVATE_JSON_CACHE } from '../responses/private-cache';
import { GET_WEBHOOK_SECRET_OPERATION, ROTATE_WEBHOOK_SECRET_OPERATION } from './api-docs';
import { rotateWebhookSecret, webhookSecretOf } from './signing-secrets';

export function webhookSecretRoutes(deps: { db: AppDb; auth: Auth }) {
  const { db, auth } = deps;
  const app = new Hono();

  app.get('/webhook-secret', describeRoute(GET_WEBHOOK_SECRET_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({ secret: await webhookSecretOf(db, user.id) } satisfies WebhookSecret);
  });

  app.post('/webhook-secret/rotate', describeRoute(ROTATE_WEBHOOK_SECRET_OPERATION), async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({ secret: await rotateWebhookSecret(db, user.id) } satisfies WebhookSecret);
  });

  return app;
}
