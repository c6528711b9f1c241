// The environment, parsed once at start. Every variable is documented in .env.example.
import path from 'node:path';
import { z } from 'zod';
import { TOOL_IDS, type ToolId } from '../contract/tools';
import type { S3StorageConfig } from './storage/s3-storage';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A metrics listener's port: 0 lets the system pick a free one (the start log names it). */
const metricsPort = z.coerce
  .number<string | undefined>({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .default(3000),
  HOST: optionalString,
  APP_URL: z.url({ error: 'must be a URL such as https://app.example.com' }).optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
        .optional(),
    )
    .optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Seconds a worker waits between polls for new jobs and account setups (a sign-up or a charge in the same process wakes it at once). */
  QUEUE_POLL_SECONDS: z.coerce.number().min(0.5, 'must be at least 0.5').max(60).default(1),
  /** Seconds a tool call waits for its job before answering 202 with the job id. */
  TOOL_WAIT_SECONDS: z.coerce.number().min(0).max(300).default(55),
  /** Seconds a tool job's provider call may take; a job running longer is handed back by the orphan sweep (retried or refunded). */
  TOOL_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(900),
  /** Seconds before a failed tool run's first retry (unset: the retry policy's, db/queue/retry-policies.ts, 5 s); the second waits twice as long, each up to twice that at random. */
  TOOL_RETRY_DELAY_SECONDS: z.coerce.number().min(0.05).max(3600).optional(),
  /** Tool calls one account may make per minute (valid or not); beyond it the API answers 429 with Retry-After. */
  TOOL_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Seconds a worker may go without renewing its lease before its jobs are handed back to the queue. */
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(3).max(600).default(30),
  /** Seconds a stopping worker waits for the jobs in hand before leaving them to the next worker. */
  WORKER_STOP_WAIT_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
  /** Tool jobs one worker process runs at a time (providers mostly wait on the network; local models queue per model). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Tool jobs one user may have queued or running at once; beyond it a call is refused (429). */
  MAX_ACTIVE_JOBS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  /** Days an uploaded image is kept after its job (decision 022). */
  UPLOAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** Days a result is kept after its job, unless deleted first (decision 022). */
  RESULT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Megabytes of stored images one user may have; a tool call past it is refused, nothing charged. */
  STORAGE_QUOTA_MB: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Seconds before a failed webhook delivery's first retry (unset: the retry policy's, 10 s); each next waits three times longer (10 tries, about a day). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .min(0.01, 'must be at least 0.01')
    .max(3600, 'must be at most 3600')
    .optional(),
  /** Inference provider for every tool (default: replicate with a token, else local); see routing. */
  INFERENCE_PROVIDER: z.enum(['replicate', 'local', 'demo']).optional(),
  /** Per-tool overrides, e.g. INFERENCE_TOOLS="<tool-id>=demo,<tool-id>=local" (ids of contract/tools.ts). */
  INFERENCE_TOOLS: z.string().trim().optional(),
  /** The local engine's ISNet for background removal: small (quantized, less memory) or medium (faster on CPU). */
  LOCAL_BACKGROUND_MODEL: z.enum(['small', 'medium']).default('medium'),
  /** How many reverse proxies append to X-Forwarded-For in front of us (0: use the socket address). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  BETTER_AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** OpenID Connect discovery document of the Google provider (tests point it at a local server). */
  GOOGLE_DISCOVERY_URL: z.url().default('https://accounts.google.com/.well-known/openid-configuration'),
  REPLICATE_API_TOKEN: optionalString,
  /** Webhook mode: the signing secret from Replicate's GET /v1/webhooks/default/secret. */
  REPLICATE_WEBHOOK_SECRET: optionalString.pipe(
    z.string().startsWith('whsec_', 'must start with whsec_ (from GET /v1/webhooks/default/secret)').optional(),
  ),
  /** How long a job may wait for its webhook before the worker asks Replicate itself. */
  REPLICATE_WEBHOOK_GRACE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  STRIPE_SECRET_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_..., sk_live_...)')
      .optional(),
  ),
  /** The signing secret of the /api/webhooks/stripe endpoint (Dashboard or `stripe listen`). */
  STRIPE_WEBHOOK_SECRET: optionalString.pipe(z.string().startsWith('whsec_', 'must start with whsec_').optional()),
  /** Price ids of the three packages (500, 1100, 2400 tokens) in the Stripe account. */
  STRIPE_PRICE_500: optionalString.pipe(z.string().startsWith('price_', 'must be a price id (price_...)').optional()),
  STRIPE_PRICE_1100: optionalString.pipe(z.string().startsWith('price_', 'must be a price id (price_...)').optional()),
  STRIPE_PRICE_2400: optionalString.pipe(z.string().startsWith('price_', 'must be a price id (price_...)').optional()),
  /**
   * Staging only: lets a production build run the built-in test checkout, which credits tokens
   * without any payment. Its name says what it is; every start logs a warning while it is on.
   */
  UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  /** The support console's operators (issue 57): these accounts, once verified, may use /admin. Comma-separated. */
  ADMIN_EMAILS: z.string().default(''),
  /** In production, callers with `Authorization: Bearer <HEALTH_TOKEN>` see /api/health's details (as do local ones). */
  HEALTH_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** off: nothing is counted and GET /metrics answers 404 (the bench's pairing measures what metrics cost). */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** In production GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (404 while unset); open elsewhere. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** A process without the app's HTTP server (`--worker`) serves its GET /metrics on this port (0: any free one, logged). */
  METRICS_PORT: optionalString.pipe(metricsPort.optional()),
  /** The local engine process (the models) serves its own GET /metrics on this port (0: any free one, logged). */
  ENGINE_METRICS_PORT: optionalString.pipe(metricsPort.optional()),
  /** The address those listeners bind: this machine only unless told (a scraper elsewhere: 0.0.0.0). */
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Where the "Please contact support" sentences, the FAQ and the footer send users (a mailto link). */
  SUPPORT_EMAIL: optionalString.pipe(
    z.email({ error: 'must be an email address such as support@example.com' }).optional(),
  ),
  /** Another Stripe API address (tests: a fake on 127.0.0.1); default https://api.stripe.com. */
  STRIPE_API_BASE: optionalString.pipe(z.url({ error: 'must be a URL such as http://127.0.0.1:12111' }).optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Picture Palette <no-reply@picturepalette.local>'),
  /** S3-compatible file storage (cluster mode across machines); unset: the DATA_DIR/files folder. */
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalString.pipe(z.url({ error: 'must be a URL such as https://s3.example.com' }).optional()),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** block: uploads the classifier finds explicit are refused (400, nothing charged); allow: no check. */
  NSFW_POLICY: z.enum(['block', 'allow']).default('block'),
  /** Probability of Porn + Hentai at or above which an upload is explicit. */
  NSFW_THRESHOLD: z.coerce
    .number({ error: 'must be a number' })
    .gt(0, 'must be above 0')
    .max(1, 'must be at most 1')
    .default(0.7),
});

export type Role = { web: boolean; worker: boolean };

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string | undefined;
  appUrl: string;
  /** Origins whose pages may change state: the app's, plus 127.0.0.1 for localhost by default. */
  trustedOrigins: string[];
  dataDir: string;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  queuePollSeconds: number;
  toolWaitSeconds: number;
  toolJobExpireSeconds: number;
  /** The first retry's delay of a tool run that threw (doubled for the next, each up to twice at random); unset: the retry policy's. */
  toolRetryDelaySeconds: number | undefined;
  workerConcurrency: number;
  toolCallsPerMinute: number;
  /** Tool jobs one user may have queued or running at once (the fair queue's cap). */
  maxActiveJobsPerUser: number;
  /** My Creations (decision 022): how long files are kept, and how much one user may store. */
  creations: { uploadRetentionDays: number; resultRetentionDays: number; quotaBytes: number };
  /** Seconds without a heartbeat after which a worker counts as gone and its jobs are handed back. */
  workerLeaseSeconds: number;
  /** How long a stopping worker waits for its jobs in hand (then the next worker runs them again). */
  workerStopWaitSeconds: number;
  inference: {
    default: 'replicate' | 'local' | 'demo';
    perTool: Partial<Record<ToolId, 'replicate' | 'local' | 'demo'>>;
  };
  /** Choices of the local engine's models. */
  local: { backgroundModel: 'small' | 'medium' };
  replicate: {
    apiToken: string;
    /** Webhook mode (else each job polls its prediction): the URL Replicate calls and the signing secret. */
    webhook: { url: string; secret: string } | null;
  } | null;
  /** Stripe payments (else the built-in local checkout). */
  stripe: StripeConfig | null;
  /** The support console's operators' emails (ADMIN_EMAILS), lower-cased: admin/operators.ts. */
  adminEmails: readonly string[];
  /** The bearer token that shows /api/health's details to an operator in production. */
  healthToken: string | undefined;
  /**
   * GET /metrics (observability/metrics-route.ts): counted at all, and the bearer token production asks
   * for; the listeners of the processes without the app's server (observability/metrics-listener.ts).
   */
  metrics: {
    enabled: boolean;
    token: string | undefined;
    /** METRICS_PORT: a worker-only process's listener (null: none). */
    port: number | null;
    /** ENGINE_METRICS_PORT: the local engine process's listener (null: none). */
    enginePort: number | null;
    host: string;
  };
  /** The support address users are shown (GET /api/config); the start log warns in production without it. */
  supportEmail: string | null;
  /** Production running the local checkout anyway (UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION): warned at every start. */
  unsafeLocalCheckout: boolean;
  /** Seconds a job waits for its provider's webhook before the worker checks on it. */
  webhookGraceSeconds: number;
  /** Our own webhooks to the callers (webhooks/deliveries/): the first retry's delay, tripled for each next; unset: the retry policy's. */
  webhooks: { retryBaseSeconds: number | undefined };
  role: Role;
  trustProxyHops: number;
  auth: {
    /** Set, or generated once into DATA_DIR by the auth module (never in production or on PostgreSQL). */
    secret: string | undefined;
    google: { clientId: string; clientSecret: string; discoveryUrl: string } | null;
  };
  mail: { smtpUrl: string | undefined; from: string };
  /** S3-compatible file storage, or null for the DATA_DIR/files folder. */
  s3: S3StorageConfig | null;
  /** The explicit-content check of uploaded images (images/moderation). */
  moderation: { policy: 'block' | 'allow'; threshold: number };
  /** Which implementation serves each external system (the health endpoint reports these). */
  providers: {
    /** The provider of every tool not routed elsewhere (INFERENCE_TOOLS). */
    inference: 'replicate' | 'local' | 'demo';
    payments: 'stripe' | 'local';
    mail: 'smtp' | 'outbox';
    storage: 'fs' | 's3';
  };
};

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id of each package, by its token count. */
  prices: { 500: string; 1100: string; 2400: string };
  /** The SDK's host/port/protocol when STRIPE_API_BASE points elsewhere (tests); null: api.stripe.com. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads `--web` / `--worker` (default: both in one process). */
export function parseRole(argv: readonly string[]): Role {
  const web = argv.includes('--web');
  const worker = argv.includes('--worker');
  return web || worker ? { web, worker } : { web: true, worker: true };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        // Secrets are never echoed into the log.
        const given = /SECRET|TOKEN/.test(key) ? undefined : env[key];
        return `${key}: ${issue.message}${given === undefined ? '' : ` (got ${JSON.stringify(given)})`}`;
      }),
    );
  }
  const e = parsed.data;
  const role = parseRole(argv);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  // Without APP_URL a developer may open either loopback name; an explicit APP_URL is the only one.
  const trustedOrigins = e.APP_URL
    ? [new URL(appUrl).origin]
    : [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`];
  const dataDir = path.resolve(e.DATA_DIR);
  if (!e.BETTER_AUTH_SECRET && (e.NODE_ENV === 'production' || e.DATABASE_URL)) {
    throw new ConfigError([
      'BETTER_AUTH_SECRET: required in production and with DATABASE_URL (every process must sign sessions with the same secret); generate one with `openssl rand -base64 32`.',
    ]);
  }
  type InferenceChoice = 'replicate' | 'local' | 'demo';
  const inferenceDefault: InferenceChoice = e.INFERENCE_PROVIDER ?? (e.REPLICATE_API_TOKEN ? 'replicate' : 'local');
  const perTool: Partial<Record<ToolId, InferenceChoice>> = {};
  for (const entry of (e.INFERENCE_TOOLS ?? '').split(',').filter((x) => x.trim())) {
    const [tool = '', provider = ''] = entry.split('=').map((x) => x.trim());
    if (!(TOOL_IDS as readonly string[]).includes(tool) || !['replicate', 'local', 'demo'].includes(provider)) {
      throw new ConfigError([
        `INFERENCE_TOOLS: "${entry}" must be tool=provider with a tool of ${TOOL_IDS.join(', ')} and a provider of replicate, local, demo`,
      ]);
    }
    perTool[tool as ToolId] = provider as InferenceChoice;
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError([
      'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both to enable Google sign-in, or neither.',
    ]);
  }
  if (!e.DATABASE_URL && !(role.web && role.worker)) {
    throw new ConfigError([
      '--web and --worker run as separate processes, which need a shared PostgreSQL: set DATABASE_URL (the embedded database serves one process).',
    ]);
  }
  const webhookUrl = `${appUrl}/api/webhooks/replicate`;
  if (e.REPLICATE_WEBHOOK_SECRET && !e.REPLICATE_API_TOKEN) {
    throw new ConfigError(['REPLICATE_WEBHOOK_SECRET: webhook mode needs REPLICATE_API_TOKEN too.']);
  }
  if (e.REPLICATE_WEBHOOK_SECRET && e.NODE_ENV === 'production' && !webhookUrl.startsWith('https://')) {
    throw new ConfigError([
      `REPLICATE_WEBHOOK_SECRET: Replicate must call ${webhookUrl} over https in production; set APP_URL to the public https address.`,
    ]);
  }
  const stripe = stripeConfig(e);
  // The local checkout credits tokens for nothing: a production server never sells through it
  // unless the operator says, in a variable named for the risk, that this is a staging server.
  const unsafeLocalCheckout =
    e.NODE_ENV === 'production' && !stripe && e.UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION === 'true';
  if (e.NODE_ENV === 'production' && !stripe && !unsafeLocalCheckout) {
    throw new ConfigError([
      `STRIPE_SECRET_KEY, ${STRIPE_SETTINGS.join(', ')}: required in production (without them the built-in test checkout would hand out tokens without payment). A staging server may set UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION=true instead.`,
    ]);
  }
  const s3 = s3Config(e);
  const adminEmails = adminEmailsOf(e.ADMIN_EMAILS);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    trustedOrigins,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
    logLevel: e.LOG_LEVEL,
    queuePollSeconds: e.QUEUE_POLL_SECONDS,
    toolWaitSeconds: e.TOOL_WAIT_SECONDS,
    toolJobExpireSeconds: e.TOOL_JOB_EXPIRE_SECONDS,
    toolRetryDelaySeconds: e.TOOL_RETRY_DELAY_SECONDS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    toolCallsPerMinute: e.TOOL_CALLS_PER_MINUTE,
    maxActiveJobsPerUser: e.MAX_ACTIVE_JOBS_PER_USER,
    creations: {
      uploadRetentionDays: e.UPLOAD_RETENTION_DAYS,
      resultRetentionDays: e.RESULT_RETENTION_DAYS,
      quotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    },
    workerLeaseSeconds: e.WORKER_LEASE_SECONDS,
    workerStopWaitSeconds: e.WORKER_STOP_WAIT_SECONDS,
    inference: { default: inferenceDefault, perTool },
    local: { backgroundModel: e.LOCAL_BACKGROUND_MODEL },
    replicate: e.REPLICATE_API_TOKEN
      ? {
          apiToken: e.REPLICATE_API_TOKEN,
          webhook: e.REPLICATE_WEBHOOK_SECRET ? { url: webhookUrl, secret: e.REPLICATE_WEBHOOK_SECRET } : null,
        }
      : null,
    stripe,
    unsafeLocalCheckout,
    adminEmails,
    healthToken: e.HEALTH_TOKEN,
    metrics: {
      enabled: e.METRICS === 'on',
      token: e.METRICS_TOKEN,
      port: e.METRICS_PORT ?? null,
      enginePort: e.ENGINE_METRICS_PORT ?? null,
      host: e.METRICS_HOST,
    },
    supportEmail: e.SUPPORT_EMAIL ?? null,
    webhookGraceSeconds: e.REPLICATE_WEBHOOK_GRACE_SECONDS,
    webhooks: { retryBaseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS },
    role,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    auth: {
      secret: e.BETTER_AUTH_SECRET,
      google:
        e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
          ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, discoveryUrl: e.GOOGLE_DISCOVERY_URL }
          : null,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    s3,
    moderation: { policy: e.NSFW_POLICY, threshold: e.NSFW_THRESHOLD },
    providers: {
      inference: inferenceDefault,
      payments: stripe ? 'stripe' : 'local',
      mail: e.SMTP_URL ? 'smtp' : 'outbox',
      storage: s3 ? 's3' : 'fs',
    },
  };
}

const STRIPE_SETTINGS = [
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_500',
  'STRIPE_PRICE_1100',
  'STRIPE_PRICE_2400',
] as const;

/** ADMIN_EMAILS: comma-separated addresses, compared without case (an account's email is kept lower-cased). */
function adminEmailsOf(list: string): string[] {
  const emails = list
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  const malformed = emails.filter((email) => !/^[^\s@]+@[^\s@]+$/.test(email));
  if (malformed.length > 0) {
    throw new ConfigError([
      `ADMIN_EMAILS: ${malformed.map((email) => `"${email}"`).join(', ')} is not an email address`,
    ]);
  }
  return emails;
}

/** S3 storage needs its bucket and both keys together; a half-configured storage is an error. */
function s3Config(e: z.infer<typeof EnvSchema>): S3StorageConfig | null {
  const given = [e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (given.every((v) => !v)) return null;
  if (!e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError([
      'S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set all three for S3 storage, or none.',
    ]);
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT ?? null,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

/** Stripe needs its key, the webhook secret and the three price ids together (or none of them). */
function stripeConfig(e: z.infer<typeof EnvSchema>): StripeConfig | null {
  if (!e.STRIPE_SECRET_KEY) {
    const stray = [...STRIPE_SETTINGS, 'STRIPE_API_BASE' as const].filter((key) => e[key]);
    if (stray.length > 0) throw new ConfigError([`${stray.join(', ')}: set STRIPE_SECRET_KEY too, or remove them.`]);
    return null;
  }
  const missing = STRIPE_SETTINGS.filter((key) => !e[key]);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((key) => `${key}: required with STRIPE_SECRET_KEY`));
  }
  const prices = [e.STRIPE_PRICE_500, e.STRIPE_PRICE_1100, e.STRIPE_PRICE_2400];
  if (new Set(prices).size !== prices.length) {
    throw new ConfigError(['STRIPE_PRICE_500, STRIPE_PRICE_1100, STRIPE_PRICE_2400: must be three different prices']);
  }
  const base = e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : null;
  if (base && base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ConfigError(['STRIPE_API_BASE: must start with http:// or https://']);
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
    prices: { 500: e.STRIPE_PRICE_500 ?? '', 1100: e.STRIPE_PRICE_1100 ?? '', 2400: e.STRIPE_PRICE_2400 ?? '' },
    api: base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : null,
  };
}
