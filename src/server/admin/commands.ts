// What `npm run admin` does to an account: look it up, grant tokens (a ledger row of reason grant),
// and set or clear the dispute and fraud flags. The changes go through the console's actions
// (actions.ts), so each writes its audit entry, its operator `cli` and the OS user. Tests call these
// directly.
import { desc, eq } from 'drizzle-orm';
import { ADMIN_MAX_TOKEN_CHANGE } from '../../contract/admin';
import type { AppDb } from '../db/client';
import { ledger, profiles, user } from '../db/schema';
import { findLedgerMismatches } from '../ledger/ledger';
import { AdminError, changeFlags, changeTokens } from './actions';
import { cliOperator, type Operator } from './audit';

export { AdminError };

export const MAX_GRANT = ADMIN_MAX_TOKEN_CHANGE;

/** The reason written when a caller gives none (tests' grants; the CLI asks for one). */
const DEFAULT_GRANT_NOTE = 'granted by support';

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

export async function grantTokens(
  db: AppDb,
  email: string,
  amount: number,
  note?: string,
  operator: Operator = cliOperator(),
) {
  if (!Number.isInteger(amount) || amount < 1 || amount > MAX_GRANT) {
    throw new AdminError(`The amount must be a whole number from 1 to ${MAX_GRANT}.`);
  }
  const account = await accountByEmail(db, email);
  const result = await changeTokens(db, operator, account.id, amount, note ?? DEFAULT_GRANT_NOTE);
  return { email: account.email, granted: amount, balance: result.balance };
}

export type AccountFlag = 'dispute' | 'fraud';

export async function setFlag(
  db: AppDb,
  email: string,
  flag: AccountFlag,
  on: boolean,
  reason = `${flag} flag ${on ? 'set' : 'cleared'} by support`,
  operator: Operator = cliOperator(),
) {
  const account = await accountByEmail(db, email);
  const flags = flag === 'dispute' ? { isDispute: on } : { isFraudulent: on };
  try {
    const result = await changeFlags(db, operator, account.id, flags, reason);
    return { email: account.email, isDispute: result.isDispute, isFraudulent: result.isFraudulent };
  } catch (error) {
    // The console's sentence speaks of an id; here support typed an email.
    if (error instanceof AdminError && error.status === 409) throw new AdminError(`${email} has no profile yet.`);
    throw error;
  }
}
