// The ledger: the only code that changes a balance, and the rule it keeps: every change is a ledger
// row and an update of profiles.tokens in one statement, never below zero, and a (reason, reference)
// pair applies once, so a retried signup bonus, purchase or refund can never count twice.
// balance == sum(ledger) always holds. The SQL of a change is here once (balanceChangeCtes): a
// signup bonus, purchase, refund or grant runs it alone (applyLedgerEntry); a tool call's charge
// composes it into the one statement that creates the job it pays for (jobs/request/charge.ts).
import { eq, type SQL, sql } from 'drizzle-orm';
import { type AppDb, executePrepared } from '../db/client';
import { errorChain } from '../db/connection-errors';
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
 * A balance change as CTEs of one statement: `balance_change(tokens)` has a row (the balance after)
 * only when `when` holds, (reason, reference) has no ledger row yet and the balance stays at zero or
 * above; the ledger row goes in with it (`ledger_row`), so nothing is written otherwise. The update
 * comes first: a statement that cannot throw (the charge's, run alone on PGlite) must not write a
 * ledger row without its change. A delta of 0 (a free preview's charge: decision 039) changes nothing
 * and reads the balance under the same condition.
 */
export function balanceChangeCtes(entry: LedgerEntry | (Omit<LedgerEntry, 'delta'> & { delta: 0 }), when?: SQL): SQL {
  const { userId, delta, reason, reference } = entry;
  if (!Number.isInteger(delta)) throw new Error('a balance changes by a whole number of tokens');
  const condition = when ?? sql`true`;
  if (delta === 0) {
    return sql`balance_change as (select ${profiles.tokens} as tokens from ${profiles} where ${profiles.userId} = ${userId} and ${condition})`;
  }
  return sql`balance_change as (
      update ${profiles} set tokens = tokens + ${delta}::int
      where user_id = ${userId}::text and tokens + ${delta}::int >= 0 and ${condition}
        and not exists (select 1 from ${ledger} where reason = ${reason}::text and reference = ${reference}::text)
      returning tokens),
    ledger_row as (
      insert into ${ledger} (user_id, delta, reason, reference, note)
      select ${userId}::text, ${delta}::int, ${reason}::text, ${reference}::text, ${entry.note ?? null}::text
      from balance_change)`;
}

/**
 * Applies `entry` once, in one statement (balanceChangeCtes): the way to grant, credit, refund or
 * deduct tokens with a reason. A repeated (reason, reference) changes nothing and returns applied
 * false. A debit that would take the balance below zero throws InsufficientTokensError and writes
 * nothing. Inside the caller's transaction it is a savepoint: two transactions applying the same
 * entry at once meet at the ledger's unique (reason, reference), and the second one's change is
 * undone there without aborting its caller's transaction.
 */
export async function applyLedgerEntry(db: DbOrTx, entry: LedgerEntry): Promise<LedgerResult> {
  if (!Number.isInteger(entry.delta) || entry.delta === 0) throw new Error('ledger delta must be a non-zero integer');
  try {
    return await db.transaction((tx) => applyLedgerEntryOnce(tx, entry));
  } catch (error) {
    if (![...errorChain(error)].some((e) => e.code === UNIQUE_VIOLATION)) throw error;
    return { applied: false, balance: await balanceOf(db, entry.userId) };
  }
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

async function applyLedgerEntryOnce(tx: DbOrTx, entry: LedgerEntry): Promise<LedgerResult> {
  const { userId, reason, reference } = entry;
  // The snapshot's balance and ledger say why nothing changed, in the same statement.
  const { rows } = await executePrepared(
    tx,
    sql`with ${balanceChangeCtes(entry)}
      select (select tokens from balance_change) as changed,
        (select ${profiles.tokens} from ${profiles} where ${profiles.userId} = ${userId}) as balance,
        exists (select 1 from ${ledger} where ${ledger.reason} = ${reason} and ${ledger.reference} = ${reference}) as repeated`,
  );
  const row = rows[0] ?? {};
  if (row.changed != null) return { applied: true, balance: Number(row.changed) };
  if (row.repeated === true) return { applied: false, balance: Number(row.balance ?? 0) };
  if (row.balance == null) throw new Error(`no profile for user ${userId}`);
  throw new InsufficientTokensError(userId, -entry.delta);
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
