// /api/admin: the support console's JSON (issue 57; the shapes: contract/admin.ts). Mounted before
// the API-key gate: anyone but an operator (signed out, a customer, any API key, an operator's too)
// gets the 404 of a route that does not exist, so the console cannot even be found. An operator's
// POSTs pass the same Origin check as every session route.
import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import { ADMIN_FLAGS_REQUEST, ADMIN_MESSAGES, ADMIN_REASON_REQUEST, ADMIN_TOKENS_REQUEST } from '../../contract/admin';
import type { TokenPackage } from '../../contract/packages';
import { hasBearerCredential } from '../auth/api-key-credential';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { isUuid } from '../db/ids';
import type { Mailer } from '../mail/mailer';
import type { Metrics } from '../observability/metrics';
import { noApiRoute } from '../responses/no-api-route';
import { PRIVATE_JSON_CACHE } from '../responses/private-cache';
import { originCheck } from '../security/origin-check';
import { accountDetail, jobsPage, ledgerPage, searchAccounts } from './account-views';
import {
  AdminError,
  changeFlags,
  changeTokens,
  refundJob,
  resendVerificationMail,
  revokeKey,
  signOutEverywhere,
} from './actions';
import { auditPage, type Operator } from './audit';
import { operatorOf } from './operators';
import { overview } from './overview';

export type AdminRoutesDeps = {
  db: AppDb;
  auth: Auth;
  mailer: Mailer;
  /** ADMIN_EMAILS, lower-cased. */
  adminEmails: readonly string[];
  trustedOrigins: readonly string[];
  packages: readonly TokenPackage[];
  workerLeaseSeconds: number;
  /** Counts the tokens an operator grants, deducts and refunds (GET /metrics). */
  metrics: Metrics;
};

type AdminEnv = { Variables: { operator: Operator } };

/** The body as `schema` reads it, or the sentence of its first problem (a body that is no JSON object has no reason). */
async function bodyOf<T extends z.ZodType>(c: Context, schema: T): Promise<{ data: z.output<T> } | { error: string }> {
  const body: unknown = await c.req.json().catch(() => null);
  const parsed = schema.safeParse(typeof body === 'object' && body !== null ? body : {});
  if (parsed.success) return { data: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? ADMIN_MESSAGES.reasonRequired };
}

/** `?page=`: from 1 (absent: 1); null when it is not a page number. */
function pageOf(value: string | undefined): number | null {
  if (value === undefined) return 1;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

/** Runs an action or read; a refusal (AdminError) answers its sentence with its status. */
async function answer(c: Context, work: () => Promise<unknown>) {
  try {
    return c.json(await work());
  } catch (error) {
    if (error instanceof AdminError) return c.json({ error: error.message }, error.status);
    throw error;
  }
}

export function adminRoutes(deps: AdminRoutesDeps) {
  const { db } = deps;
  const app = new Hono<AdminEnv>();

  app.use('*', async (c, next) => {
    const headers = c.req.raw.headers;
    // A key never reaches the console, whoever's it is: the session alone says who an operator is.
    const operator = hasBearerCredential(headers)
      ? null
      : operatorOf(deps.adminEmails, await sessionUser(deps.auth, c));
    if (!operator) return noApiRoute(c);
    c.set('operator', operator);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    await next();
  });
  app.use('*', originCheck(deps.trustedOrigins));

  app.get('/me', (c) => c.json(c.get('operator')));

  app.get('/accounts', (c) => answer(c, async () => ({ accounts: await searchAccounts(db, c.req.query('q') ?? '') })));

  app.get('/accounts/:id', (c) => answer(c, () => accountDetail(db, c.req.param('id'), deps.packages)));

  app.get('/accounts/:id/ledger', (c) => {
    const page = pageOf(c.req.query('page'));
    if (page === null) return c.json({ error: ADMIN_MESSAGES.badPage }, 400);
    return answer(c, () => ledgerPage(db, c.req.param('id'), page));
  });

  app.get('/accounts/:id/jobs', (c) => {
    const page = pageOf(c.req.query('page'));
    if (page === null) return c.json({ error: ADMIN_MESSAGES.badPage }, 400);
    return answer(c, () => jobsPage(db, c.req.param('id'), page));
  });

  app.post('/accounts/:id/tokens', async (c) => {
    const body = await bodyOf(c, ADMIN_TOKENS_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    const { delta, reason } = body.data;
    return answer(c, async () => {
      const change = await changeTokens(db, c.get('operator'), c.req.param('id'), delta, reason);
      deps.metrics.tokens(delta > 0 ? 'granted' : 'deducted', Math.abs(delta));
      return change;
    });
  });

  app.post('/accounts/:id/flags', async (c) => {
    const body = await bodyOf(c, ADMIN_FLAGS_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    const { reason, ...flags } = body.data;
    return answer(c, () => changeFlags(db, c.get('operator'), c.req.param('id'), flags, reason));
  });

  app.post('/accounts/:id/verification-mail', async (c) => {
    const body = await bodyOf(c, ADMIN_REASON_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    return answer(c, () => resendVerificationMail(deps, c.get('operator'), c.req.param('id'), body.data.reason));
  });

  app.post('/accounts/:id/sign-out', async (c) => {
    const body = await bodyOf(c, ADMIN_REASON_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    return answer(c, () => signOutEverywhere(db, c.get('operator'), c.req.param('id'), body.data.reason));
  });

  app.post('/jobs/:id/refund', async (c) => {
    const body = await bodyOf(c, ADMIN_REASON_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: ADMIN_MESSAGES.jobNotFound }, 404);
    return answer(c, async () => {
      const refund = await refundJob(db, c.get('operator'), id, body.data.reason);
      deps.metrics.tokens('refunded', refund.refunded);
      return refund;
    });
  });

  app.post('/keys/:id/revoke', async (c) => {
    const body = await bodyOf(c, ADMIN_REASON_REQUEST);
    if ('error' in body) return c.json({ error: body.error }, 400);
    const id = c.req.param('id');
    if (!isUuid(id)) return c.json({ error: ADMIN_MESSAGES.keyNotFound }, 404);
    return answer(c, () => revokeKey(db, c.get('operator'), id, body.data.reason));
  });

  app.get('/audit', (c) => {
    const page = pageOf(c.req.query('page'));
    if (page === null) return c.json({ error: ADMIN_MESSAGES.badPage }, 400);
    return answer(c, () => auditPage(db, page, c.req.query('account') || undefined));
  });

  app.get('/overview', (c) =>
    answer(c, () => overview(db, { packages: deps.packages, workerLeaseSeconds: deps.workerLeaseSeconds })),
  );

  // The console's unknown routes answer as the API's do.
  app.all('*', noApiRoute);
  return app;
}
