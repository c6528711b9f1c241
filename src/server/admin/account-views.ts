// What the console reads of accounts (issue 57): a search, and an account with everything support
// looks at when someone writes in. Reads only; the changes are actions.ts's.
import { and, count, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import {
  ADMIN_MESSAGES,
  ADMIN_PAGE_SIZE,
  ADMIN_SEARCH_LIMIT,
  type AdminAccountDetail,
  type AdminAccountSummary,
  type AdminJobPage,
  type AdminLedgerPage,
  type AdminPayment,
  type AdminWebhookDelivery,
} from '../../contract/admin';
import type { TokenPackage } from '../../contract/packages';
import { listApiKeys } from '../api-keys/repository';
import type { AppDb } from '../db/client';
import { jobs, ledger, payments, profiles, session, user, webhookDeliveries } from '../db/schema';
import { refundedFor } from '../jobs/refunds';
import { findLedgerMismatches } from '../ledger/ledger';
import { AdminError } from './actions';
import { auditPage } from './audit';

const SUMMARY_COLUMNS = {
  id: user.id,
  email: user.email,
  name: user.name,
  emailVerified: user.emailVerified,
  createdAt: user.createdAt,
  tokens: profiles.tokens,
  isDispute: profiles.isDispute,
  isFraudulent: profiles.isFraudulent,
  stripeCustomerId: profiles.stripeCustomerId,
};

/** Accounts with their profile (none yet while the account's setup is pending): where, order and limit added. */
const summaries = (db: AppDb) =>
  db.select(SUMMARY_COLUMNS).from(user).leftJoin(profiles, eq(profiles.userId, user.id)).$dynamic();

const summaryOf = (row: Awaited<ReturnType<typeof summaries>>[number]): AdminAccountSummary => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * Accounts whose user id or Stripe customer id is `q`, or whose email is it or begins with it
 * (without case); exact matches first, then the newest. A blank `q`: the newest sign-ups.
 */
export async function searchAccounts(db: AppDb, q: string): Promise<AdminAccountSummary[]> {
  const term = q.trim();
  const email = term.toLowerCase();
  const exact = or(eq(user.id, term), eq(profiles.stripeCustomerId, term), eq(user.email, email));
  const rows = await summaries(db)
    .where(term === '' ? undefined : or(exact, sql`${user.email} like ${`${escapeLike(email)}%`}`))
    .orderBy(...(term === '' ? [] : [desc(sql`coalesce(${exact}, false)`)]), desc(user.createdAt), desc(user.id))
    .limit(ADMIN_SEARCH_LIMIT);
  return rows.map(summaryOf);
}

async function accountSummary(db: AppDb, userId: string): Promise<AdminAccountSummary> {
  const [row] = await summaries(db).where(eq(user.id, userId));
  if (!row) throw new AdminError(ADMIN_MESSAGES.accountNotFound, 404);
  return summaryOf(row);
}

const offsetOf = (page: number) => (page - 1) * ADMIN_PAGE_SIZE;

/** The account's balance changes, newest first. */
export async function ledgerPage(db: AppDb, userId: string, page: number): Promise<AdminLedgerPage> {
  await accountSummary(db, userId);
  const where = eq(ledger.userId, userId);
  const [rows, [total]] = await Promise.all([
    db.select().from(ledger).where(where).orderBy(desc(ledger.id)).limit(ADMIN_PAGE_SIZE).offset(offsetOf(page)),
    db.select({ n: count() }).from(ledger).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      delta: row.delta,
      reason: row.reason,
      reference: row.reference,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
    })),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

/** The account's tool calls, newest first, with what each was charged and given back. */
export async function jobsPage(db: AppDb, userId: string, page: number): Promise<AdminJobPage> {
  await accountSummary(db, userId);
  const where = eq(jobs.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: jobs.id,
        tool: jobs.tool,
        provider: jobs.provider,
        status: jobs.status,
        error: jobs.error,
        cost: jobs.cost,
        charged: jobs.charged,
        batchId: jobs.batchId,
        createdAt: jobs.createdAt,
        finishedAt: jobs.finishedAt,
      })
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(jobs).where(where),
  ]);
  const refunds = await refundedFor(
    db,
    userId,
    rows.map((row) => row.id),
  );
  return {
    items: rows.map((row, i) => ({
      ...row,
      refunded: refunds[i]?.refunded ?? 0,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
    })),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

async function paymentsOf(db: AppDb, userId: string, packages: readonly TokenPackage[]): Promise<AdminPayment[]> {
  const rows = await db
    .select({ payment: payments, creditId: ledger.id })
    .from(payments)
    .leftJoin(ledger, and(eq(ledger.reason, 'purchase'), eq(ledger.reference, payments.sessionId)))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt));
  return rows.map(({ payment, creditId }) => ({
    id: payment.id,
    sessionId: payment.sessionId,
    provider: payment.provider,
    packageId: payment.packageId,
    packageName: packages.find((p) => p.id === payment.packageId)?.name ?? null,
    tokens: payment.tokens,
    amountCents: payment.amountCents,
    status: payment.status,
    credited: creditId !== null,
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  }));
}

/** Deliveries given up on, and those whose last try failed (retrying), newest first. */
async function failedDeliveriesOf(db: AppDb, userId: string): Promise<AdminWebhookDelivery[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(jobs, eq(jobs.id, webhookDeliveries.jobId))
    .where(
      and(
        eq(jobs.userId, userId),
        or(
          eq(webhookDeliveries.status, 'failed'),
          and(eq(webhookDeliveries.status, 'pending'), isNotNull(webhookDeliveries.lastError)),
        ),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(ADMIN_PAGE_SIZE);
  return rows.map(({ delivery }) => ({
    jobId: delivery.jobId,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.nextAttemptAt.toISOString(),
    createdAt: delivery.createdAt.toISOString(),
  }));
}

export async function accountDetail(
  db: AppDb,
  userId: string,
  packages: readonly TokenPackage[],
): Promise<AdminAccountDetail> {
  const account = await accountSummary(db, userId);
  const [mismatches, paymentList, ledgerFirst, jobsFirst, keys, sessions, deliveries, audit] = await Promise.all([
    findLedgerMismatches(db, userId),
    paymentsOf(db, userId, packages),
    ledgerPage(db, userId, 1),
    jobsPage(db, userId, 1),
    listApiKeys(db, userId),
    db
      .select({
        id: session.id,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
      })
      .from(session)
      .where(eq(session.userId, userId))
      .orderBy(desc(session.createdAt)),
    failedDeliveriesOf(db, userId),
    auditPage(db, 1, userId),
  ]);
  return {
    account,
    ledgerMatchesBalance: mismatches.length === 0,
    payments: paymentList,
    ledger: ledgerFirst,
    jobs: jobsFirst,
    apiKeys: keys,
    sessions: sessions.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
    failedWebhookDeliveries: deliveries,
    audit,
  };
}
