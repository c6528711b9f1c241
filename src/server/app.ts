// Builds the HTTP application from its modules. Tests call `app.request()` on it in-process.
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { accountRoutes, DEV_MAIL_PATH } from './accounts/routes';
import { adminRoutes } from './admin/routes';
import { apiDocsRoutes } from './api-docs/routes';
import { apiKeyGate, apiKeyGateOutsideApi } from './api-keys/key-gate';
import { apiKeyRoutes } from './api-keys/routes';
import type { Auth } from './auth/auth';
import { clientIpMiddleware } from './auth/client-ip';
import { batchRoutes } from './batches/routes';
import { LOCAL_CHECKOUT_PATH } from './billing/local-provider';
import { activePackages } from './billing/packages';
import type { PaymentProvider } from './billing/payment-provider';
import { billingApiRoutes, localCheckoutRoutes } from './billing/routes';
import { stripeWebhookRoutes } from './billing/stripe/stripe-webhook';
import type { Config } from './config';
import { creationRoutes } from './creations/routes';
import { sharedPageHead } from './creations/shared-creation';
import type { Database } from './db/client';
import type { InstanceInfo } from './db/instance';
import { healthRoutes } from './health/routes';
import { serverErrorWithReference } from './http-server';
import type { ImageModeration } from './images/moderation/image-moderation';
import type { InferenceRouter } from './inference/routing';
import type { JobSignals } from './jobs/queue/job-signals';
import { toolRoutes, toolsInfoOf } from './jobs/request/tool-call-routes';
import { fileRoutes } from './jobs/views/file-routes';
import { createJobProgress } from './jobs/views/job-progress';
import { jobRoutes } from './jobs/views/job-routes';
import type { Logger } from './log';
import { devMailRoutes } from './mail/dev-mail-routes';
import type { Mailer } from './mail/mailer';
import type { Metrics } from './observability/metrics';
import { httpMetrics, METRICS_PATH, metricsEndpoint } from './observability/metrics-route';
import { requestIds } from './observability/request-id';
import { spaRoutes } from './pages/spa';
import type { RecipeRunner } from './recipes/recipe-runner';
import { recipeRoutes } from './recipes/routes';
import { refineRoutes } from './refine/routes';
import { compressJson } from './responses/compress-json';
import { noApiRoute } from './responses/no-api-route';
import { apiBodyLimit } from './security/body-limit';
import { originCheck } from './security/origin-check';
import { securityHeaders } from './security/security-headers';
import { rejectBrokenUrlEncoding } from './security/url-encoding';
import type { FileStorage } from './storage/storage';
import { serverTool } from './tools/registry';
import { WEBHOOK_DELIVERIES } from './webhooks/api-docs';
import { deliveryOf } from './webhooks/deliveries/delivery-repository';
import { replicateWebhookRoutes } from './webhooks/replicate-webhook';
import { webhookSecretRoutes } from './webhooks/secret-routes';

export type AppDeps = {
  config: Config;
  database: Database;
  instance: InstanceInfo;
  auth: Auth;
  mailer: Mailer;
  storage: FileStorage;
  payments: PaymentProvider;
  /** The Stripe client when Stripe serves payments (its webhook re-reads sessions and charges). */
  stripe: Stripe | null;
  inference: InferenceRouter;
  /** The explicit-content check of uploaded images, before a tool call is charged. */
  moderation: ImageModeration;
  /** Wakes this process's worker and waiting requests (both roles in one process). */
  signals: JobSignals;
  logger: Logger;
  /** This process's counts (GET /metrics), shared with its worker. */
  metrics: Metrics;
  startedAt: Date;
  version: string;
  /** The built web app; omitted by API-only tests. */
  webDistDir?: string;
  /** The loop that moves recipe runs on (system.ts stops it); started here with the tool calls' needs. */
  recipeRunner: RecipeRunner;
};

export function buildApp(deps: AppDeps) {
  const { config, auth } = deps;
  const billing = {
    db: deps.database.db,
    auth,
    payments: deps.payments,
    packages: activePackages(config.stripe?.prices ?? null),
    appUrl: config.appUrl,
    trustedOrigins: config.trustedOrigins,
    logger: deps.logger,
    metrics: deps.metrics,
  };
  // A waiting job's place and time left, read at most once a second per provider: for the tool
  // calls' 202s and the job reads alike.
  const progressOf = createJobProgress(deps.database.db, { slotsPerWorker: config.workerConcurrency });
  // What a tool call needs, for the ten tools' routes and for a batch's images alike.
  const toolCalls = {
    db: deps.database.db,
    auth,
    storage: deps.storage,
    inference: deps.inference,
    moderation: deps.moderation,
    logger: deps.logger,
    callsPerMinute: config.toolCallsPerMinute,
    progressOf,
    maxActiveJobsPerUser: config.maxActiveJobsPerUser,
    storageQuotaBytes: config.creations.quotaBytes,
    signals: deps.signals,
    webhooks: { production: config.env === 'production' },
    metrics: deps.metrics,
  };
  deps.recipeRunner.start(toolCalls);
  const api = new Hono()
    .use('*', rejectBrokenUrlEncoding())
    .use('*', apiBodyLimit())
    .use('*', compressJson())
    .route('/health', healthRoutes(deps))
    // Webhooks carry no Origin: their senders sign them instead.
    .route(
      '/webhooks',
      replicateWebhookRoutes({
        db: deps.database.db,
        storage: deps.storage,
        logger: deps.logger,
        signals: deps.signals,
        metrics: deps.metrics,
        providerFor: (tool, recorded) => deps.inference.providerForJob(tool, recorded),
        secret: config.replicate?.webhook?.secret ?? null,
      }),
    )
    .route(
      '/webhooks',
      stripeWebhookRoutes({
        db: deps.database.db,
        logger: deps.logger,
        metrics: deps.metrics,
        packages: billing.packages,
        stripe:
          deps.stripe && config.stripe ? { client: deps.stripe, webhookSecret: config.stripe.webhookSecret } : null,
      }),
    )
    // The OpenAPI document: public, read by generators and other sites alike (with or without a key).
    // Built from the routes that declare their operation (describeRoute), once all are mounted.
    .route(
      '/',
      apiDocsRoutes({
        routes: () => app.routes,
        serverUrl: config.appUrl,
        version: deps.version,
        webhooks: WEBHOOK_DELIVERIES,
        toolRequests: (tool) => serverTool(tool).request,
      }),
    )
    // The support console (issue 57): before the key gate, which would answer a key 403 there; to
    // anyone but an operator signed in with a session it answers 404 (admin/routes.ts).
    .route(
      '/admin',
      adminRoutes({
        db: deps.database.db,
        auth,
        mailer: deps.mailer,
        adminEmails: config.adminEmails,
        trustedOrigins: config.trustedOrigins,
        packages: billing.packages,
        workerLeaseSeconds: config.workerLeaseSeconds,
        metrics: deps.metrics,
      }),
    )
    // A request with an API key may call the tools and read jobs, files, creations and the profile:
    // anything else with one is refused here, better-auth's routes included.
    .use('*', apiKeyGate({ callsPerMinute: config.toolCallsPerMinute }))
    // better-auth answers everything under /api/auth (it checks Origin and rate limits itself).
    .on(['GET', 'POST'], '/auth/*', (c) => auth.handler(c.req.raw))
    .use('*', originCheck(config.trustedOrigins))
    .route(
      '/',
      accountRoutes({
        config,
        db: deps.database.db,
        auth,
        mailer: deps.mailer,
        logger: deps.logger,
        storage: deps.storage,
        payments: deps.payments,
        signals: deps.signals,
        metrics: deps.metrics,
      }),
    )
    .route('/', toolRoutes({ ...toolCalls, waitMs: config.toolWaitSeconds * 1000 }))
    .route('/', batchRoutes(toolCalls))
    .route('/', recipeRoutes({ ...toolCalls, runner: deps.recipeRunner }))
    .route('/', apiKeyRoutes({ db: deps.database.db, auth }))
    .route(
      '/',
      jobRoutes({
        db: deps.database.db,
        auth,
        progressOf,
        signals: deps.signals,
        webhookDeliveryOf: deliveryOf,
      }),
    )
    .route('/', fileRoutes({ db: deps.database.db, auth, storage: deps.storage }))
    .route(
      '/',
      creationRoutes({
        db: deps.database.db,
        auth,
        storage: deps.storage,
        settings: config.creations,
        appUrl: config.appUrl,
      }),
    )
    .route(
      '/',
      refineRoutes({
        db: deps.database.db,
        auth,
        storage: deps.storage,
        quotaBytes: config.creations.quotaBytes,
      }),
    )
    .route('/', billingApiRoutes(billing))
    .route('/', webhookSecretRoutes({ db: deps.database.db, auth }))
    .all('*', noApiRoute);

  const app = new Hono();
  // First: every answer, a refusal or the 500 below included, carries its reference and is counted.
  app.use('*', requestIds());
  app.use('*', httpMetrics(deps.metrics));
  app.onError((error, c) => {
    deps.logger.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    const reference = c.get('requestId');
    return c.json({ error: serverErrorWithReference(reference), reference }, 500);
  });
  app.use('*', securityHeaders({ production: config.env === 'production' }));
  app.use('*', clientIpMiddleware(config.trustProxyHops));
  // Before the key gate: its Authorization carries METRICS_TOKEN, not an API key.
  app.get(
    METRICS_PATH,
    metricsEndpoint({ metrics: deps.metrics, production: config.env === 'production', token: config.metrics.token }),
  );
  // A key may act only where /api's gate lets it: everywhere else (the local checkout) it is refused.
  app.use('*', apiKeyGateOutsideApi());
  app.route('/api', api);
  if (deps.payments.kind === 'local') app.route(LOCAL_CHECKOUT_PATH, localCheckoutRoutes(billing));
  // With Stripe the test checkout is off: a 404, not the web app's fallback page.
  else app.all(`${LOCAL_CHECKOUT_PATH}/*`, (c) => c.text('The test checkout is off: payments go through Stripe.', 404));
  if (deps.mailer.kind === 'outbox' && config.env !== 'production') {
    app.route(DEV_MAIL_PATH, devMailRoutes(deps.database));
  }
  if (deps.webDistDir) {
    app.route(
      '/',
      spaRoutes(deps.webDistDir, config.appUrl, {
        tools: () => toolsInfoOf(deps.inference),
        onRenderError: (error, page) =>
          deps.logger.warn('prerendering a page failed: it gets the shell', { error, page }),
        sharedHead: (token) => sharedPageHead(deps.database.db, config.appUrl, token),
      }),
    );
  }
  return app;
}

export type App = ReturnType<typeof buildApp>;
