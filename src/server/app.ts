// Builds the HTTP application from its modules. Tests call `app.request()` on it in-process.
import { Hono } from 'hono';
import { accountRoutes, DEV_MAIL_PATH } from './accounts/routes';
import type { Auth } from './auth/auth';
import { clientIpMiddleware } from './auth/client-ip';
import { LOCAL_CHECKOUT_PATH } from './billing/local-provider';
import type { PaymentProvider } from './billing/payment-provider';
import { billingApiRoutes, localCheckoutRoutes } from './billing/routes';
import type { Config } from './config';
import type { Database } from './db/client';
import type { InstanceInfo } from './db/instance';
import { healthRoutes } from './health/routes';
import type { InferenceRouter } from './inference/routing';
import type { JobSignals } from './jobs/job-signals';
import type { Queue } from './jobs/queue';
import type { Logger } from './log';
import { devMailRoutes } from './mail/dev-mail-routes';
import type { Mailer } from './mail/mailer';
import { originCheck } from './security/origin-check';
import type { FileStorage } from './storage/storage';
import { toolRoutes } from './tools/routes';
import { spaRoutes } from './web/spa';
import { replicateWebhookRoutes } from './webhooks/replicate-webhook';

export type AppDeps = {
  config: Config;
  database: Database;
  queue: Queue;
  instance: InstanceInfo;
  auth: Auth;
  mailer: Mailer;
  storage: FileStorage;
  payments: PaymentProvider;
  inference: InferenceRouter;
  /** Wakes this process's worker and waiting requests (both roles in one process). */
  signals: JobSignals;
  logger: Logger;
  startedAt: Date;
  version: string;
  /** The built web app; omitted by API-only tests. */
  webDistDir?: string;
};

export function buildApp(deps: AppDeps) {
  const { config, auth } = deps;
  const billing = {
    db: deps.database.db,
    auth,
    payments: deps.payments,
    appUrl: config.appUrl,
    trustedOrigins: config.trustedOrigins,
  };
  const api = new Hono()
    .route('/health', healthRoutes(deps))
    // better-auth answers everything under /api/auth (it checks Origin and rate limits itself).
    .on(['GET', 'POST'], '/auth/*', (c) => auth.handler(c.req.raw))
    // Webhooks carry no Origin: their senders sign them instead.
    .route(
      '/webhooks',
      replicateWebhookRoutes({
        db: deps.database.db,
        storage: deps.storage,
        logger: deps.logger,
        signals: deps.signals,
        providerFor: (tool) => deps.inference.providerFor(tool),
        secret: config.replicate?.webhook?.secret ?? null,
      }),
    )
    .use('*', originCheck(config.trustedOrigins))
    .route('/', accountRoutes({ config, db: deps.database.db, auth, mailer: deps.mailer, logger: deps.logger }))
    .route(
      '/',
      toolRoutes({
        db: deps.database.db,
        auth,
        queue: deps.queue,
        storage: deps.storage,
        inference: deps.inference,
        logger: deps.logger,
        waitMs: config.toolWaitSeconds * 1000,
        signals: deps.signals,
      }),
    )
    .route('/', billingApiRoutes(billing))
    .all('*', (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404));

  const app = new Hono();
  app.onError((error, c) => {
    deps.logger.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  app.use('*', clientIpMiddleware(config.trustProxyHops));
  app.route('/api', api);
  if (deps.payments.kind === 'local') app.route(LOCAL_CHECKOUT_PATH, localCheckoutRoutes(billing));
  if (deps.mailer.kind === 'outbox' && config.env !== 'production') {
    app.route(DEV_MAIL_PATH, devMailRoutes(deps.database));
  }
  if (deps.webDistDir) app.route('/', spaRoutes(deps.webDistDir));
  return app;
}

export type App = ReturnType<typeof buildApp>;
