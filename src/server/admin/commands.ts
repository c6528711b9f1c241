// What support does to an account: look it up, grant tokens (a ledger row of reason grant), and
// set or clear the dispute and fraud flags. `npm run admin` calls these; tests call them directly.
import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { ledger, profiles, user } from '../db/schema';
import { applyLedgerEntry, findLedgerMismatches } from '../ledger/ledger';

export class AdminError extends Error {
  override name = 'AdminError';
}

export const MAX_GRANT = 1_000_000;

async function accountByEmail(db: AppDb, email: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, emailVerified: user.emailVerified, createdAt: user.createdAt })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()));
  if (!row) throw new AdminError(`No account for ${email}.`);
  return row;
}

export async function lookupAccount(db: AppDb, email: string) {
  const account = await accountByEmail(db, email);
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, account.id));
  const recentLedger = await db
    .select({
      at: ledger.createdAt,
      delta: ledger.delta,
      reason: ledger.reason,
      reference: ledger.reference,
      note: ledger.note,
    })
    .from(ledger)
    .where(eq(ledger.userId, account.id))
    .orderBy(desc(ledger.id))
    .limit(20);
  const mismatches = await findLedgerMismatches(db, account.id);
  return {
    userId: account.id,
    email: account.email,
    emailVerified: account.emailVerified,
    createdAt: account.createdAt,
    tokens: profile?.tokens ?? null,
    isDispute: profile?.isDispute ?? null,
    isFraudulent: profile?.isFraudulent ?? null,
    stripeCustomerId: profile?.stripeCustomerId ?? null,
    ledgerMatchesBalance: mismatches.length === 0,
    recentLedger,
  };
}

export async function grantTokens(db: AppDb, email: string, amount: number, note?: string) {
  if (!Number.isInteger(amount) || amount < 1 || amount > MAX_GRANT) {
    throw new AdminError(`The amount must be a whole number from 1 to ${MAX_GRANT}.`);
  }
  const account = await accountByEmail(db, email);
  const result = await applyLedgerEntry(db, {
    userId: account.id,
    delta: amount,
    reason: 'grant',
    reference: `grant:${randomUUID()}`,
    note: note ?? 'granted by support',
  });
  return { email: account.email, granted: amount, balance: result.balance };
}

export type AccountFlag = 'dispute' | 'fraud';

export async function setFlag(db: AppDb, email: string, flag: AccountFlag, on: boolean) {
  const account = await accountByEmail(db, email);
  const column = flag === 'dispute' ? { isDispute: on } : { isFraudulent: on };
  const updated = await db.update(profiles).set(column).where(eq(profiles.userId, account.id)).returning();
  if (updated.length === 0) throw new AdminError(`${email} has no profile yet.`);
  return { email: account.email, isDispute: updated[0]?.isDispute, isFraudulent: updated[0]?.isFraudulent };
}
