// The ledger: the only code that changes a balance. Every change is a ledger row and an update of
// profiles.tokens in the same transaction; a (reason, reference) pair applies once, so a retried
// signup bonus, purchase or refund can never count twice. balance == sum(ledger) always holds.
// The job charge writes its debit, under the same rules, in the statement that creates the job
// (jobs/request/charge.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { type LedgerReason, ledger, profiles } from '../db/schema';

/** A transaction handle or the database itself: both run the same queries. */
export type DbOrTx = Pick<AppDb, 'select' | 'insert' | 'update' | 'execute' | 'transaction'>;

export class InsufficientTokensError extends Error {
  constructor(
    readonly userId: string,
    readonly needed: number,
  ) {
    super(`user ${userId} has fewer than ${needed} tokens`);
    this.name = 'InsufficientTokensError';
  }
}

export type LedgerEntry = {
  userId: string;
  /** Positive credits, negative debits; never zero. */
  delta: number;
  reason: LedgerReason;
  /** What the change is for (user id, job id, checkout session id...): unique per reason. */
  reference: string;
  note?: string;
};

export type LedgerResult = { applied: boolean; balance: number };

/**
 * Applies `entry` once. A repeated (reason, reference) changes nothing and returns applied false.
 * A debit that would take the balance below zero throws InsufficientTokensError and writes nothing.
 * Inside the caller's transaction it is a savepoint, so the caller's whole unit rolls back with it.
 */
export function applyLedgerEntry(db: DbOrTx, entry: LedgerEntry): Promise<LedgerResult> {
  return db.transaction((tx) => applyLedgerEntryInTransaction(tx, entry));
}

async function applyLedgerEntryInTransaction(tx: DbOrTx, entry: LedgerEntry): Promise<LedgerResult> {
  if (!Number.isInteger(entry.delta) || entry.delta === 0) throw new Error('ledger delta must be a non-zero integer');
  const inserted = await tx
    .insert(ledger)
    .values({
      userId: entry.userId,
      delta: entry.delta,
      reason: entry.reason,
      reference: entry.reference,
      note: entry.note,
    })
    .onConflictDoNothing({ target: [ledger.reason, ledger.reference] })
    .returning({ id: ledger.id });
  if (inserted.length === 0) return { applied: false, balance: await balanceOf(tx, entry.userId) };
  const updated = await tx
    .update(profiles)
    .set({ tokens: sql`${profiles.tokens} + ${entry.delta}` })
    .where(and(eq(profiles.userId, entry.userId), sql`${profiles.tokens} + ${entry.delta} >= 0`))
    .returning({ tokens: profiles.tokens });
  const row = updated[0];
  if (!row) {
    // No profile, or not enough tokens: undo the ledger row by failing the transaction.
    const exists = await tx.select({ one: sql`1` }).from(profiles).where(eq(profiles.userId, entry.userId));
    if (exists.length === 0) throw new Error(`no profile for user ${entry.userId}`);
    throw new InsufficientTokensError(entry.userId, -entry.delta);
  }
  return { applied: true, balance: row.tokens };
}

export async function balanceOf(tx: DbOrTx, userId: string): Promise<number> {
  const [row] = await tx.select({ tokens: profiles.tokens }).from(profiles).where(eq(profiles.userId, userId));
  return row?.tokens ?? 0;
}

export type LedgerMismatch = { userId: string; balance: number; ledgerSum: number };

/** Users whose balance differs from the sum of their ledger (none, unless something is wrong). */
export async function findLedgerMismatches(db: DbOrTx, userId?: string): Promise<LedgerMismatch[]> {
  const rows = await db
    .select({
      userId: profiles.userId,
      balance: profiles.tokens,
      ledgerSum: sql<string>`coalesce(sum(${ledger.delta}), 0)`,
    })
    .from(profiles)
    .leftJoin(ledger, eq(ledger.userId, profiles.userId))
    .where(userId ? eq(profiles.userId, userId) : undefined)
    .groupBy(profiles.userId, profiles.tokens);
  // sum() is bigint: a string on node-postgres, a number on PGlite.
  return rows
    .map((r) => ({ userId: r.userId, balance: r.balance, ledgerSum: Number(r.ledgerSum) }))
    .filter((r) => r.balance !== r.ledgerSum);
}
