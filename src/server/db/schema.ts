// The database schema (PostgreSQL dialect; runs on PGlite and on PostgreSQL alike).
// Migrations in ./migrations are generated from this file with `npm run db:generate`.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ADMIN_ACTIONS } from '../../contract/admin-rules';
// The statuses GET /api/jobs/:id reports are the column's: one list for both.
import { WEBHOOK_DELIVERY_STATUSES } from '../../contract/api-response-schemas';
import type { RecipeStep } from '../../contract/recipes';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * One row naming this installation. Every process of a deployment reports the same id in
 * /api/health, which shows they share one database, and it survives restarts with the data.
 */
export const appInstance = pgTable(
  'app_instance',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    instanceId: uuid('instance_id').notNull().defaultRandom(),
    createdAt: createdAt(),
  },
  (t) => [check('app_instance_single_row', sql`${t.singleton}`)],
);

// --- better-auth's tables (identity, sessions, linked accounts, verification tokens) ---------
// Column names follow better-auth's schema for the drizzle adapter; snake_case in SQL.

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** better-auth's rate-limit counters, in the database so that every web process shares them. */
export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

// --- the product's own data ------------------------------------------------------------------

/** The spec's user profile. Only the ledger module changes `tokens`; only the server sets flags. */
export const profiles = pgTable(
  'profiles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id'),
    tokens: integer('tokens').notNull().default(0),
    isDispute: boolean('is_dispute').notNull().default(false),
    isFraudulent: boolean('is_fraudulent').notNull().default(false),
    /**
     * Bytes the user's stored images take (the sum of their `files` sizes), kept by triggers on
     * `files` (migration 0013) so that every insert and delete, cascades included, counts; a tool
     * call reads it for the storage quota instead of summing every file the user ever made.
     */
    storageUsed: bigint('storage_used', { mode: 'number' }).notNull().default(0),
    /** When the last verification mail went out: the server's 60-second resend cooldown. */
    verificationEmailSentAt: timestamp('verification_email_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('profiles_tokens_not_negative', sql`${t.tokens} >= 0`)],
);

/**
 * `grant`: tokens support gave (the console or `npm run admin`); `adjustment`: tokens support took
 * back (the console, never below zero). Both reference the audit entry: `audit:<admin_audit.id>`.
 */
export const LEDGER_REASONS = ['signup', 'purchase', 'job', 'refund', 'grant', 'adjustment'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** Every balance change. A (reason, reference) pair happens once: no double signup bonus or refund. */
export const ledger = pgTable(
  'ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: LEDGER_REASONS }).notNull(),
    reference: text('reference').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('ledger_reason_reference_unique').on(t.reason, t.reference),
    index('ledger_user_id_idx').on(t.userId),
    check('ledger_reason_known', sql`${t.reason} in ('signup', 'purchase', 'job', 'refund', 'grant', 'adjustment')`),
    check('ledger_delta_not_zero', sql`${t.delta} <> 0`),
  ],
);

/** Mails sent by the local outbox (development): shown at /dev/mail and printed to the log. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** One tool call: charged when created, run once by a worker, refunded if it fails. */
/**
 * A batch run (issue 40, decision 062): many images through one image tool, each its own job
 * (jobs.batch_id). The row holds what the jobs do not: the tool and how many images will be sent.
 */
export const batches = pgTable(
  'batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    size: integer('size').notNull(),
    /**
     * What the server knows of each image besides its job, by its place ("0", "1", ...): its file
     * name when the names came with the batch, and the server's sentence when it refused the image
     * (nothing charged, no job): batches/batch-images.ts reads it with the jobs.
     */
    images: jsonb('images').$type<Record<string, { name?: string; refused?: string }>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('batches_user_idx').on(t.userId), check('batches_size_positive', sql`${t.size} > 0`)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    /** The tool's price for this request (price × units), also for a free preview. */
    cost: integer('cost').notNull(),
    /**
     * Tokens debited when it was queued: the cost, or 0 for a job the demo serves (a free preview).
     * Refunds (ledger, reference the job id) give back what was charged, never more.
     */
    charged: integer('charged').notNull(),
    /** The request without its image bytes (those are in `files`, kind input). */
    input: jsonb('input').notNull(),
    /** The provider it was queued for; once it has run, the one that served it (demo: a free preview). */
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    /** Succeeded: { files: [ids] } for image tools, { keywords, colors } for the analyzer. */
    result: jsonb('result'),
    /** Failed: the message the user sees. */
    error: text('error'),
    idempotencyKey: text('idempotency_key'),
    /** Hash of the request body, so a reused Idempotency-Key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** Runs started (claims by a worker): the tool-run queue tries a job at most TOOL_RUN_TRIES times. */
    attempts: integer('attempts').notNull().default(0),
    /** A queued job waiting out a retry's delay is not taken before this; null: due now. */
    runAfter: timestamp('run_after', { withTimezone: true }),
    /** The round-robin round the queue serves it in (jobs/queue/fair-queue.ts); its queue priority is minus this. */
    queueRound: integer('queue_round').notNull().default(0),
    /** The worker lease (worker_leases) of the process running it: when that lease lapses, the job is handed back. */
    workerId: uuid('worker_id'),
    /** My Creations' share link (unguessable, revocable); null while not shared, the default. */
    shareToken: text('share_token'),
    /** The URL the call asked to be POSTed the job when it ends (issue 39); its delivery: webhook_deliveries. */
    webhookUrl: text('webhook_url'),
    /** The batch this job is an image of (issue 40, decision 062); null for a single call. */
    batchId: uuid('batch_id').references(() => batches.id, { onDelete: 'cascade' }),
    /** Its place in the batch, from 0 (null outside a batch). */
    batchItem: integer('batch_item'),
    /** The input's file name in a batch (its zip entry is named after it); null outside a batch. */
    sourceName: text('source_name'),
    /**
     * A version made by refining a result by hand (issue 58, decision 082): the original job, whose
     * versions are it and every job naming it here; null for a tool call. A version's row is a
     * succeeded job of cost 0 with provider `refine`; it outlives its original (then null).
     */
    parentJobId: uuid('parent_job_id').references((): AnyPgColumn => jobs.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    // A user's jobs newest first (My Creations' pages, GET /api/jobs), ties broken by id.
    index('jobs_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Each user's jobs in progress (the caps on them, counted by every charge: single calls and batch
    // images apart, decision 062): only those are in it.
    index('jobs_user_active_idx').on(t.userId, t.batchId).where(sql`${t.status} in ('queued', 'running')`),
    // The newest good runs of a tool on a provider (the waiting user's "usually about"): read from
    // the end, 20 rows, however many jobs have ever run.
    index('jobs_succeeded_idx').on(t.tool, t.provider, t.finishedAt).where(sql`${t.status} = 'succeeded'`),
    // The tool-run queue (decision 037): the waiting jobs in the order a worker takes them.
    index('jobs_queue_order_idx').on(t.queueRound, t.createdAt, t.id).where(sql`${t.status} = 'queued'`),
    // The round being served (the highest round started): only started jobs, so a deep queue of
    // waiting ones is not scanned past on every charge (jobs/request/charge.ts), and a waiting job writes no entry.
    index('jobs_started_round_idx').on(t.queueRound).where(sql`${t.status} <> 'queued'`),
    // Each user's last round.
    index('jobs_user_queue_round_idx').on(t.userId, t.queueRound),
    // Almost every job has none of these three: indexed only where set, a job's three row versions
    // (queued, running, finished) write no index entries for them (decision 032).
    // A provider's webhook names its task, not our job.
    index('jobs_provider_ref_idx').on(t.providerRef).where(sql`${t.providerRef} is not null`),
    uniqueIndex('jobs_user_idempotency_key_unique')
      .on(t.userId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    uniqueIndex('jobs_share_token_unique').on(t.shareToken).where(sql`${t.shareToken} is not null`),
    // A batch's images in their order; each place is taken once.
    uniqueIndex('jobs_batch_item_unique').on(t.batchId, t.batchItem).where(sql`${t.batchId} is not null`),
    // An original's versions (My Creations lists them with each): only refined versions have one.
    index('jobs_parent_idx').on(t.parentJobId).where(sql`${t.parentJobId} is not null`),
    check('jobs_status_known', sql`${t.status} in ('queued', 'running', 'succeeded', 'failed')`),
    // 0 only for a version refined by hand (free; decision 082); every tool call has its price.
    check('jobs_cost_positive', sql`${t.cost} > 0 or ${t.provider} = 'refine'`),
    check('jobs_charged_within_cost', sql`${t.charged} >= 0 and ${t.charged} <= ${t.cost}`),
  ],
);

/**
 * One row per running worker process, renewed every few seconds (jobs/worker-leases.ts). A job
 * whose worker's lease has lapsed or is gone belongs to a crashed process and is handed back.
 */
export const workerLeases = pgTable('worker_leases', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Account setups not done yet (accounts/account-setup.ts, decision 045): one row per new account
 * from sign-up until its setup succeeds (then deleted). A worker claims a due row (attempts + 1,
 * its lease); a failure makes it due again after a backoff; a claim whose worker's lease lapsed is
 * due again at once, and one held longer than the expiry too. After the last try the row stays,
 * with its error, and is due no more.
 */
export const accountSetups = pgTable(
  'account_setups',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    /** The lease of the worker running it now; null when waiting. */
    workerId: uuid('worker_id'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('account_setups_due_idx').on(t.runAfter)],
);

/**
 * Stored images: a tool's inputs and outputs, served to their owner only, and a refinable result's
 * matte (`matte`, decision 082: the model's or the hand-refined one, read by the refine editor).
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['input', 'output', 'matte'] }).notNull(),
    storageKey: text('storage_key').notNull().unique(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_job_idx').on(t.jobId),
    // A user's files: the account deletion's and the storage_used triggers' backfill (migration 0013).
    index('files_user_size_idx').on(t.userId, t.size),
  ],
);

/**
 * The emails of deleted accounts, as keyed hashes (HMAC-SHA256 with the auth secret): no address is
 * kept, yet a new sign-up with one is known and gets no second sign-up bonus (issue 36).
 */
export const deletedEmails = pgTable('deleted_emails', {
  emailHash: text('email_hash').primaryKey(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Webhook deliveries already handled, by the sender's delivery id: a redelivered webhook is answered
 * and ignored. Rows older than a day are pruned (a signature is only accepted for 5 minutes anyway).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'webhook_events_provider_event_id_pk', columns: [t.provider, t.eventId] }),
    index('webhook_events_received_at_idx').on(t.receivedAt),
  ],
);

/**
 * 'expired': the checkout's hour passed without payment (billing/checkout-expiry.ts), or its account
 * was deleted. 'refunded': paid after its account was deleted, so refunded instead of credited;
 * 'refund_failed': such a payment whose refund failed, an alert for the operator until it succeeds.
 */
export const PAYMENT_STATUSES = ['open', 'paid', 'failed', 'canceled', 'expired', 'refunded', 'refund_failed'] as const;

/** One checkout session: what was sold (from our own package table) and whether it was paid. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'local'] }).notNull(),
    /** The provider's checkout session id: a session is credited at most once (ledger reference). */
    sessionId: text('session_id').notNull().unique(),
    packageId: text('package_id').notNull(),
    tokens: integer('tokens').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.createdAt),
    // Health and the admin's alerts read these on every call: kept small and found at once.
    index('payments_refund_failed_idx').on(t.createdAt).where(sql`${t.status} = 'refund_failed'`),
    check(
      'payments_status_known',
      sql`${t.status} in ('open', 'paid', 'failed', 'canceled', 'expired', 'refunded', 'refund_failed')`,
    ),
    check('payments_tokens_positive', sql`${t.tokens} > 0`),
  ],
);

/**
 * The webhook delivery of a job whose call carried a `webhook` URL (decision 059): written by the
 * charge's statement with the job, due once the job has ended, claimed by one worker at a time
 * (webhooks/deliveries/), retried with backoff until a 2xx or its last try.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    jobId: uuid('job_id')
      .primaryKey()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    /** Tries made (claims): at most WEBHOOK_TRIES. */
    attempts: integer('attempts').notNull().default(0),
    /** Not tried before this: after a failed try, the backoff; while a try is in hand, its expiry. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The receiver's HTTP status on the last try, when it answered. */
    lastStatus: integer('last_status'),
    /** Why the last try failed (no answer, a timeout, an address refused); null once delivered. */
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // The loop's look for due deliveries reads only those still pending.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status_known', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Each account's webhook signing secret (`whsec_` + base64 of 24 random bytes), made on first use, rotatable. */
export const webhookSecrets = pgTable('webhook_secrets', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A user's API keys (issue 39): `Authorization: Bearer pp_...` acts as the user on the tool calls and
 * the reads of jobs, files, creations and the profile. Only the SHA-256 of a key is kept (the key is
 * shown once, when made); `prefix` is its first characters, for the list in User Settings. A deleted
 * row is a refused key on the next request: every request looks the hash up in the database.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    /** Written at most once a minute per key (auth/session.ts), not on every call. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
);

/**
 * The support console's audit log (issue 57, decision 078): every operator action, and every change
 * `npm run admin` makes, written in the same transaction as the change. Nothing references the user
 * row: an entry outlives anything it names.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The operator's user id; `cli` for `npm run admin`. */
    operatorId: text('operator_id').notNull(),
    /** The operator's email at the time; the OS user's name for `npm run admin`. */
    operatorName: text('operator_name').notNull(),
    action: text('action', { enum: ADMIN_ACTIONS }).notNull(),
    /** The account acted on. */
    targetUserId: text('target_user_id'),
    /** What within it: the job refunded, the key revoked (null: the account itself). */
    subject: text('subject'),
    reason: text('reason').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    // An account's entries, newest first (the console's account page).
    index('admin_audit_target_idx').on(t.targetUserId, t.id),
    check('admin_audit_reason_not_blank', sql`length(trim(${t.reason})) > 0`),
    check(
      'admin_audit_action_known',
      sql`${t.action} in ('tokens', 'flags', 'refund', 'verification-mail', 'revoke-key', 'sign-out')`,
    ),
  ],
);

/**
 * Recipes (issue 58 item 5, decision 083): a named chain of image tools an account keeps, each step
 * the tool's own request fields without the image (contract/recipes.ts RecipeStep).
 */
export const recipes = pgTable(
  'recipes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    steps: jsonb('steps').$type<RecipeStep[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('recipes_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A run of a recipe: its steps as they were (the recipe may be edited or deleted meanwhile) and the
 * batch that holds its last steps' results (the zip). Its images are recipe_run_items.
 */
export const recipeRuns = pgTable(
  'recipe_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    recipeId: uuid('recipe_id').references(() => recipes.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    steps: jsonb('steps').$type<RecipeStep[]>().notNull(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('recipe_runs_user_idx').on(t.userId)],
);

/**
 * One image of a run, and where its chain is: the job of each step started so far (`jobIds`, in
 * order; the last one is the step waiting or running). The recipe runner (server/recipes/) moves a
 * `running` image on when its last job ends: the next step's call, or `done`, or `failed`.
 */
export const recipeRunItems = pgTable(
  'recipe_run_items',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => recipeRuns.id, { onDelete: 'cascade' }),
    item: integer('item').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    jobIds: jsonb('job_ids').$type<string[]>().notNull().default([]),
    error: text('error'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.item] }),
    // What the runner looks at: the images whose chain goes on.
    index('recipe_run_items_running_idx').on(t.runId).where(sql`${t.status} = 'running'`),
    check('recipe_run_items_status_known', sql`${t.status} in ('running', 'done', 'failed')`),
  ],
);
