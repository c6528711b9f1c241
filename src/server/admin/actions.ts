// What an operator does to an account (issue 57), for the console's routes and `npm run admin`
// alike: each checks what it is asked, makes its change and writes its audit entry in one
// transaction, so a refusal changes nothing and every change has its entry.
import { eq } from 'drizzle-orm';
import { ADMIN_MESSAGES, type AdminAuditEntry } from '../../contract/admin';
import { sendVerificationMail } from '../accounts/verification-mail';
import type { Auth } from '../auth/auth';
import type { AppDb } from '../db/client';
import { apiKeys, profiles, session, user } from '../db/schema';
import { refundEndedJob, type SupportRefundRefusal } from '../jobs/refunds';
import { applyLedgerEntry, InsufficientTokensError } from '../ledger/ledger';
import type { Mailer } from '../mail/mailer';
import { type Operator, writeAudit } from './audit';

/** A refusal, with the sentence the operator reads and the HTTP status the console answers. */
export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 | 429 = 400,
  ) {
    super(message);
  }
}

/** The account's row, or a 404. */
export async function accountById(db: AppDb, userId: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, userId));
  if (!row) throw new AdminError(ADMIN_MESSAGES.accountNotFound, 404);
  return row;
}

/**
 * Grants (delta > 0, ledger reason `grant`) or deducts (reason `adjustment`) tokens, never below
 * zero; the ledger row's reference is the audit entry (`audit:<id>`), its note the reason.
 */
export async function changeTokens(
  db: AppDb,
  operator: Operator,
  userId: string,
  delta: number,
  reason: string,
): Promise<{ balance: number; audit: AdminAuditEntry }> {
  await accountById(db, userId);
  return db.transaction(async (tx) => {
    // Locked: the balance the entry records before and after is the one the change applies to.
    const [profile] = await tx
      .select({ tokens: profiles.tokens })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .for('update');
    if (!profile) throw new AdminError(ADMIN_MESSAGES.noProfile, 409);
    if (profile.tokens + delta < 0) throw new AdminError(ADMIN_MESSAGES.belowZero(profile.tokens));
    const audit = await writeAudit(tx, operator, {
      action: 'tokens',
      accountId: userId,
      reason,
      before: { tokens: profile.tokens },
      after: { tokens: profile.tokens + delta },
    });
    try {
      const change = await applyLedgerEntry(tx, {
        userId,
        delta,
        reason: delta > 0 ? 'grant' : 'adjustment',
        reference: `audit:${audit.id}`,
        note: reason,
      });
      return { balance: change.balance, audit };
    } catch (error) {
      if (error instanceof InsufficientTokensError) throw new AdminError(ADMIN_MESSAGES.belowZero(profile.tokens));
      throw error;
    }
  });
}

export type AccountFlags = { isDispute?: boolean; isFraudulent?: boolean };

/** Sets or clears the dispute and fraud flags given (a flagged account can neither call tools nor buy). */
export async function changeFlags(
  db: AppDb,
  operator: Operator,
  userId: string,
  flags: AccountFlags,
  reason: string,
): Promise<{ isDispute: boolean; isFraudulent: boolean; audit: AdminAuditEntry }> {
  await accountById(db, userId);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ isDispute: profiles.isDispute, isFraudulent: profiles.isFraudulent })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .for('update');
    if (!before) throw new AdminError(ADMIN_MESSAGES.noProfile, 409);
    const after = {
      isDispute: flags.isDispute ?? before.isDispute,
      isFraudulent: flags.isFraudulent ?? before.isFraudulent,
    };
    await tx.update(profiles).set(after).where(eq(profiles.userId, userId));
    const audit = await writeAudit(tx, operator, { action: 'flags', accountId: userId, reason, before, after });
    return { ...after, audit };
  });
}

const REFUND_REFUSALS: Record<SupportRefundRefusal, [string, AdminError['status']]> = {
  'not-found': [ADMIN_MESSAGES.jobNotFound, 404],
  'not-ended': [ADMIN_MESSAGES.jobNotEnded, 409],
  'not-charged': [ADMIN_MESSAGES.jobNotCharged, 409],
  'already-refunded': [ADMIN_MESSAGES.jobAlreadyRefunded, 409],
};

/** Gives back what an ended job was charged and not refunded yet, once (jobs/refunds.ts). */
export async function refundJob(
  db: AppDb,
  operator: Operator,
  jobId: string,
  reason: string,
): Promise<{ refunded: number; balance: number; audit: AdminAuditEntry }> {
  return db.transaction(async (tx) => {
    const refund = await refundEndedJob(tx, jobId, `refunded by support: ${reason}`);
    if (typeof refund === 'string') throw new AdminError(...REFUND_REFUSALS[refund]);
    const audit = await writeAudit(tx, operator, {
      action: 'refund',
      accountId: refund.userId,
      subject: jobId,
      reason,
      before: { refunded: refund.charged - refund.refunded, tokens: refund.balance - refund.refunded },
      after: { refunded: refund.charged, tokens: refund.balance },
    });
    return { refunded: refund.refunded, balance: refund.balance, audit };
  });
}

/**
 * Sends the verification mail again, under the same once-a-minute rule as the user's own resend.
 * The entry is written once the mail has gone (the mail is the change; its send time, the claim).
 */
export async function resendVerificationMail(
  deps: { db: AppDb; auth: Auth; mailer: Mailer },
  operator: Operator,
  userId: string,
  reason: string,
): Promise<{ sent: true; audit: AdminAuditEntry }> {
  const account = await accountById(deps.db, userId);
  if (account.emailVerified) throw new AdminError(ADMIN_MESSAGES.alreadyVerified, 409);
  const [profile] = await deps.db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId));
  if (!profile) throw new AdminError(ADMIN_MESSAGES.noProfile, 409);
  const result = await sendVerificationMail(deps, account);
  if (!result.sent) throw new AdminError(ADMIN_MESSAGES.mailCooldown(result.retryAfterSeconds), 429);
  const audit = await writeAudit(deps.db, operator, {
    action: 'verification-mail',
    accountId: userId,
    reason,
    before: null,
    after: { sentTo: account.email },
  });
  return { sent: true, audit };
}

/** Deletes an API key: its next request is refused, in every process. */
export async function revokeKey(
  db: AppDb,
  operator: Operator,
  keyId: string,
  reason: string,
): Promise<{ audit: AdminAuditEntry }> {
  return db.transaction(async (tx) => {
    const [key] = await tx
      .delete(apiKeys)
      .where(eq(apiKeys.id, keyId))
      .returning({ userId: apiKeys.userId, name: apiKeys.name, prefix: apiKeys.prefix });
    if (!key) throw new AdminError(ADMIN_MESSAGES.keyNotFound, 404);
    const audit = await writeAudit(tx, operator, {
      action: 'revoke-key',
      accountId: key.userId,
      subject: keyId,
      reason,
      before: { name: key.name, prefix: key.prefix },
      after: null,
    });
    return { audit };
  });
}

/** Ends every session of the account: each browser is signed out on its next request. */
export async function signOutEverywhere(
  db: AppDb,
  operator: Operator,
  userId: string,
  reason: string,
): Promise<{ sessionsEnded: number; audit: AdminAuditEntry }> {
  await accountById(db, userId);
  return db.transaction(async (tx) => {
    const ended = await tx.delete(session).where(eq(session.userId, userId)).returning({ id: session.id });
    const audit = await writeAudit(tx, operator, {
      action: 'sign-out',
      accountId: userId,
      reason,
      before: { sessions: ended.length },
      after: { sessions: 0 },
    });
    return { sessionsEnded: ended.length, audit };
  });
}
