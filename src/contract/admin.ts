// final. The support console's API (issue 57), /api/admin/...: its requests and
// answers as zod schemas, the one description of these shapes for the server (server/admin/) and
// the /admin pages (which import the types only: the rules and sentences are in admin-rules.ts,
// without zod).
//
// Every route answers 404 `{ error }` (as an unknown API route does) to anyone but an operator: a
// verified account whose email is in ADMIN_EMAILS, signed in with a session (never an API key).
// POSTs need the app's Origin like every session route. Refusals answer `{ error: <sentence> }`:
// 400 for a bad body (a missing reason names it), 404 for an unknown id, 409 for an action that
// cannot happen now (a refund twice, a job still running), 429 for the verification mail's cooldown.
//
//   GET  me                               -> AdminOperator (the page asks this first: 404, not an operator)
//   GET  accounts?q=                      -> AdminAccountList (q: email (exact or its start), user id
//                                            or Stripe customer id; blank: the newest sign-ups)
//   GET  accounts/:id                     -> AdminAccountDetail (first page of ledger, jobs, audit)
//   GET  accounts/:id/ledger?page=        -> AdminLedgerPage
//   GET  accounts/:id/jobs?page=          -> AdminJobPage
//   POST accounts/:id/tokens              AdminTokensRequest   -> AdminTokensResult
//   POST accounts/:id/flags               AdminFlagsRequest    -> AdminFlagsResult
//   POST accounts/:id/verification-mail   AdminReasonRequest   -> AdminVerificationMailResult
//   POST accounts/:id/sign-out            AdminReasonRequest   -> AdminSignOutResult
//   POST jobs/:id/refund                  AdminReasonRequest   -> AdminRefundResult
//   POST keys/:id/revoke                  AdminReasonRequest   -> AdminRevokeKeyResult
//   GET  audit?page=&account=             -> AdminAuditPage (newest first; account: one account's)
//   GET  overview                         -> AdminOverview
// Pages count from 1; times are ISO 8601 strings.
import { z } from 'zod';
import { ADMIN_ACTIONS, ADMIN_MAX_TOKEN_CHANGE, ADMIN_MESSAGES, ADMIN_REASON_MAX_LENGTH } from './admin-rules';
import { JOB_STATUS } from './api-response-schemas';

export * from './admin-rules';

// --- requests ---------------------------------------------------------------------------------

/** Every action's reason, kept in the audit log: required, trimmed, at most 500 characters. */
export const ADMIN_REASON = z
  .string({ error: ADMIN_MESSAGES.reasonRequired })
  .trim()
  .min(1, ADMIN_MESSAGES.reasonRequired)
  .max(ADMIN_REASON_MAX_LENGTH, ADMIN_MESSAGES.reasonTooLong);

/** `POST accounts/:id/verification-mail`, `accounts/:id/sign-out`, `jobs/:id/refund`, `keys/:id/revoke`. */
export const ADMIN_REASON_REQUEST = z.object({ reason: ADMIN_REASON });
export type AdminReasonRequest = z.input<typeof ADMIN_REASON_REQUEST>;

/** `POST accounts/:id/tokens`: a grant (delta > 0) or a deduction (delta < 0); never below zero. */
export const ADMIN_TOKENS_REQUEST = z.object({
  reason: ADMIN_REASON,
  delta: z
    .number({ error: ADMIN_MESSAGES.deltaInvalid })
    .int(ADMIN_MESSAGES.deltaInvalid)
    .min(-ADMIN_MAX_TOKEN_CHANGE, ADMIN_MESSAGES.deltaInvalid)
    .max(ADMIN_MAX_TOKEN_CHANGE, ADMIN_MESSAGES.deltaInvalid)
    .refine((delta) => delta !== 0, ADMIN_MESSAGES.deltaInvalid),
});
export type AdminTokensRequest = z.input<typeof ADMIN_TOKENS_REQUEST>;

/** `POST accounts/:id/flags`: sets (true) or clears (false) the flags given; at least one. */
export const ADMIN_FLAGS_REQUEST = z
  .object({
    reason: ADMIN_REASON,
    isDispute: z.boolean({ error: ADMIN_MESSAGES.flagsMissing }).optional(),
    isFraudulent: z.boolean({ error: ADMIN_MESSAGES.flagsMissing }).optional(),
  })
  .refine((body) => body.isDispute !== undefined || body.isFraudulent !== undefined, ADMIN_MESSAGES.flagsMissing);
export type AdminFlagsRequest = z.input<typeof ADMIN_FLAGS_REQUEST>;

// --- answers ----------------------------------------------------------------------------------

const isoTime = z.string().describe('ISO 8601');

/** A list's page: `items` of page `page` (from 1) of `pageSize`; `total` rows in all. */
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number(), pageSize: z.number(), total: z.number() });

/** `GET me`: the operator signed in (user id, email). */
export const ADMIN_OPERATOR = z.object({ id: z.string(), name: z.string() });
export type AdminOperator = z.output<typeof ADMIN_OPERATOR>;

export const ADMIN_ACCOUNT_SUMMARY = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  createdAt: isoTime,
  /** Null (as the flags) while the account's profile is not made yet (its setup pending). */
  tokens: z.number().nullable(),
  isDispute: z.boolean().nullable(),
  isFraudulent: z.boolean().nullable(),
  stripeCustomerId: z.string().nullable(),
});
export type AdminAccountSummary = z.output<typeof ADMIN_ACCOUNT_SUMMARY>;

/** `GET accounts?q=`: at most ADMIN_SEARCH_LIMIT, newest first. */
export const ADMIN_ACCOUNT_LIST = z.object({ accounts: z.array(ADMIN_ACCOUNT_SUMMARY) });
export type AdminAccountList = z.output<typeof ADMIN_ACCOUNT_LIST>;

/** One balance change. reason: signup, purchase, job, refund, grant (support's), adjustment (support's deduction). */
export const ADMIN_LEDGER_ROW = z.object({
  id: z.number(),
  delta: z.number(),
  reason: z.string(),
  /** What it is for: a job id, a checkout session id, `audit:<audit entry id>` for support's changes... */
  reference: z.string(),
  note: z.string().nullable(),
  createdAt: isoTime,
});
export type AdminLedgerRow = z.output<typeof ADMIN_LEDGER_ROW>;
export const ADMIN_LEDGER_PAGE = pageOf(ADMIN_LEDGER_ROW);
export type AdminLedgerPage = z.output<typeof ADMIN_LEDGER_PAGE>;

/** One tool call, newest first. */
export const ADMIN_JOB = z.object({
  id: z.string(),
  tool: z.string(),
  provider: z.string(),
  status: JOB_STATUS,
  /** A failed job's sentence (what the user saw); null otherwise. */
  error: z.string().nullable(),
  cost: z.number(),
  /** Tokens taken when it was queued (0: a free preview). */
  charged: z.number(),
  /** Tokens given back for it so far (automatic refunds and support's). */
  refunded: z.number(),
  batchId: z.string().nullable(),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type AdminJob = z.output<typeof ADMIN_JOB>;
export const ADMIN_JOB_PAGE = pageOf(ADMIN_JOB);
export type AdminJobPage = z.output<typeof ADMIN_JOB_PAGE>;

/** A checkout session and what became of it, newest first. */
export const ADMIN_PAYMENT = z.object({
  id: z.string(),
  sessionId: z.string(),
  provider: z.string(),
  packageId: z.string(),
  /** The package's name when it is one this server sells now. */
  packageName: z.string().nullable(),
  tokens: z.number(),
  amountCents: z.number(),
  /** open, paid, failed, canceled, expired, refunded, refund_failed */
  status: z.string(),
  /** Whether its tokens are in the ledger (a paid payment that is not is an alert). */
  credited: z.boolean(),
  createdAt: isoTime,
  completedAt: isoTime.nullable(),
});
export type AdminPayment = z.output<typeof ADMIN_PAYMENT>;

/** Names and first characters only: never a key or its hash. */
export const ADMIN_API_KEY = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
});
export type AdminApiKey = z.output<typeof ADMIN_API_KEY>;

/** A signed-in browser (never its token). */
export const ADMIN_SESSION = z.object({
  id: z.string(),
  createdAt: isoTime,
  expiresAt: isoTime,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type AdminSession = z.output<typeof ADMIN_SESSION>;

/** A webhook delivery that failed for good (`failed`) or whose last try failed (`pending`, retrying). */
export const ADMIN_WEBHOOK_DELIVERY = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: isoTime,
  createdAt: isoTime,
});
export type AdminWebhookDelivery = z.output<typeof ADMIN_WEBHOOK_DELIVERY>;

/** One action of an operator (or of `npm run admin`), as the audit log keeps it. */
export const ADMIN_AUDIT_ENTRY = z.object({
  id: z.number(),
  at: isoTime,
  /** Who: a console operator's user id and email; `npm run admin`: id `cli` and the OS user's name. */
  operator: ADMIN_OPERATOR,
  action: z.enum(ADMIN_ACTIONS),
  /** On whom (null: the account is gone), with its email now. */
  accountId: z.string().nullable(),
  accountEmail: z.string().nullable(),
  /** What within the account: the job refunded, the key revoked; null for the account itself. */
  subject: z.string().nullable(),
  reason: z.string(),
  /** What the action changed, before and after: e.g. `{ tokens: 20 }` -> `{ tokens: 120 }`. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminAuditEntry = z.output<typeof ADMIN_AUDIT_ENTRY>;
export const ADMIN_AUDIT_PAGE = pageOf(ADMIN_AUDIT_ENTRY);
export type AdminAuditPage = z.output<typeof ADMIN_AUDIT_PAGE>;

/** `GET accounts/:id`: everything support looks at, with the first page of each list. */
export const ADMIN_ACCOUNT_DETAIL = z.object({
  account: ADMIN_ACCOUNT_SUMMARY,
  /** False when the balance differs from the sum of the ledger (should never be). */
  ledgerMatchesBalance: z.boolean(),
  /** Purchases and checkouts, newest first (all of them). */
  payments: z.array(ADMIN_PAYMENT),
  ledger: ADMIN_LEDGER_PAGE,
  jobs: ADMIN_JOB_PAGE,
  apiKeys: z.array(ADMIN_API_KEY),
  sessions: z.array(ADMIN_SESSION),
  failedWebhookDeliveries: z.array(ADMIN_WEBHOOK_DELIVERY),
  /** This account's audit entries, newest first. */
  audit: ADMIN_AUDIT_PAGE,
});
export type AdminAccountDetail = z.output<typeof ADMIN_ACCOUNT_DETAIL>;

// Each action answers what it changed and its audit entry.
export const ADMIN_TOKENS_RESULT = z.object({ balance: z.number(), audit: ADMIN_AUDIT_ENTRY });
export type AdminTokensResult = z.output<typeof ADMIN_TOKENS_RESULT>;
export const ADMIN_FLAGS_RESULT = z.object({
  isDispute: z.boolean(),
  isFraudulent: z.boolean(),
  audit: ADMIN_AUDIT_ENTRY,
});
export type AdminFlagsResult = z.output<typeof ADMIN_FLAGS_RESULT>;
export const ADMIN_REFUND_RESULT = z.object({
  /** Tokens given back now: what the job was charged less what it had been refunded. */
  refunded: z.number(),
  balance: z.number(),
  audit: ADMIN_AUDIT_ENTRY,
});
export type AdminRefundResult = z.output<typeof ADMIN_REFUND_RESULT>;
export const ADMIN_VERIFICATION_MAIL_RESULT = z.object({ sent: z.literal(true), audit: ADMIN_AUDIT_ENTRY });
export type AdminVerificationMailResult = z.output<typeof ADMIN_VERIFICATION_MAIL_RESULT>;
export const ADMIN_REVOKE_KEY_RESULT = z.object({ audit: ADMIN_AUDIT_ENTRY });
export type AdminRevokeKeyResult = z.output<typeof ADMIN_REVOKE_KEY_RESULT>;
export const ADMIN_SIGN_OUT_RESULT = z.object({ sessionsEnded: z.number(), audit: ADMIN_AUDIT_ENTRY });
export type AdminSignOutResult = z.output<typeof ADMIN_SIGN_OUT_RESULT>;

// --- the overview -----------------------------------------------------------------------------

/** One window's totals (the last 24 hours, the last 30 days). */
export const ADMIN_OVERVIEW_WINDOW = z.object({
  signUps: z.number(),
  /** Tool calls (jobs made), by tool and provider, most first. */
  toolCalls: z.array(z.object({ tool: z.string(), provider: z.string(), count: z.number() })),
  /** Failed jobs by their sentence, most first (at most 10). */
  failures: z.array(z.object({ reason: z.string(), count: z.number() })),
  refunds: z.object({ count: z.number(), tokens: z.number() }),
  tokensSold: z.number(),
  /** Tokens charged for tool calls (before refunds). */
  tokensSpent: z.number(),
  /** Paid checkouts by package. */
  revenue: z.array(
    z.object({
      packageId: z.string(),
      packageName: z.string().nullable(),
      payments: z.number(),
      amountCents: z.number(),
    }),
  ),
});
export type AdminOverviewWindow = z.output<typeof ADMIN_OVERVIEW_WINDOW>;

/** One bar of a chart: the hour or day from `start`. */
export const ADMIN_OVERVIEW_BUCKET = z.object({
  start: isoTime,
  signUps: z.number(),
  toolCalls: z.number(),
  failures: z.number(),
  tokensSold: z.number(),
  tokensSpent: z.number(),
  revenueCents: z.number(),
});
export type AdminOverviewBucket = z.output<typeof ADMIN_OVERVIEW_BUCKET>;

export const ADMIN_ALERT_PAYMENT = z.object({
  sessionId: z.string(),
  userId: z.string(),
  amountCents: z.number(),
  tokens: z.number(),
  status: z.string(),
  createdAt: isoTime,
});
export type AdminAlertPayment = z.output<typeof ADMIN_ALERT_PAYMENT>;

/** `GET overview` */
export const ADMIN_OVERVIEW = z.object({
  at: isoTime,
  last24Hours: ADMIN_OVERVIEW_WINDOW,
  last30Days: ADMIN_OVERVIEW_WINDOW,
  /** For small charts, oldest first: 24 buckets of an hour and 30 of a day, the last ending at `at`. */
  hourly: z.array(ADMIN_OVERVIEW_BUCKET),
  daily: z.array(ADMIN_OVERVIEW_BUCKET),
  /** Now: tool jobs waiting and running, and how long the oldest has waited (null: none waits). */
  queue: z.object({ waiting: z.number(), running: z.number(), oldestWaitingSeconds: z.number().nullable() }),
  /** Worker processes whose lease is current. */
  workersAlive: z.number(),
  /** Webhook deliveries to callers: retrying after a failed try now, and given up in the last 30 days. */
  webhookDeliveries: z.object({ retrying: z.number(), failedLast30Days: z.number() }),
  /** What needs a hand: paid payments whose tokens are not in the ledger; refunds of payments that failed. */
  alerts: z.object({
    paidNotCredited: z.array(ADMIN_ALERT_PAYMENT),
    refundFailed: z.array(ADMIN_ALERT_PAYMENT),
  }),
});
export type AdminOverview = z.output<typeof ADMIN_OVERVIEW>;
