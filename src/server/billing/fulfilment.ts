// Fulfilment, shared by every payment provider: a paid checkout session credits its package's
// tokens once (ledger reason purchase, reference the session id), whatever repeats or races.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { payments, user } from '../db/schema';
import { applyLedgerEntry } from '../ledger/ledger';
import { type Metrics, NO_METRICS } from '../observability/metrics';
import { deletedEmail } from '../profiles/profiles';

export type FulfilmentResult =
  | { credited: boolean; tokens: number; userId: string; accountDeleted?: false }
  /** Paid after its account was deleted: nothing credited, the row left for the refund. */
  | { credited: false; accountDeleted: true; userId: string }
  /** Paid after the user cancelled the checkout (it cannot be, at the provider): nothing credited, refunded. */
  | { credited: false; canceled: true; accountDeleted?: false; userId: string }
  | null;

/**
 * Marks the session paid and credits it; a session already paid (or unknown) changes nothing. A
 * credit is counted (`metrics`: a payment paid, its tokens sold) once committed.
 */
export async function fulfilPayment(
  db: AppDb,
  sessionId: string,
  metrics: Metrics = NO_METRICS,
): Promise<FulfilmentResult> {
  const result = await db.transaction(async (tx): Promise<FulfilmentResult> => {
    const [payment] = await tx.select().from(payments).where(eq(payments.sessionId, sessionId));
    if (!payment) return null;
    // Locked so that a deletion running now finishes first (or waits for this credit). A session
    // credited before the deletion stays as it is: a repeated event must not refund it.
    const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, payment.userId)).for('update');
    if (payment.status !== 'paid' && owner?.email === deletedEmail(payment.userId)) {
      return { credited: false, accountDeleted: true, userId: payment.userId };
    }
    // Never over a cancellation: the update waits for a cancellation writing the row now and then
    // sees it (closePayment's update waits for this one in turn, and finds the row paid).
    const marked = await tx
      .update(payments)
      .set({ status: 'paid', completedAt: sql`coalesce(${payments.completedAt}, now())` })
      .where(and(eq(payments.sessionId, sessionId), ne(payments.status, 'canceled')))
      .returning({ id: payments.id });
    if (marked.length === 0) return { credited: false, canceled: true, userId: payment.userId };
    const credit = await applyLedgerEntry(tx, {
      userId: payment.userId,
      delta: payment.tokens,
      reason: 'purchase',
      reference: sessionId,
      note: payment.packageId,
    });
    return { credited: credit.applied, tokens: payment.tokens, userId: payment.userId };
  });
  if (result?.credited) {
    metrics.payment('paid');
    metrics.tokens('sold', result.tokens);
  }
  return result;
}

/** A session that ended without payment; a paid one stays paid. True when this call closed it. */
export async function closePayment(
  db: AppDb,
  sessionId: string,
  status: 'failed' | 'canceled' | 'expired',
  metrics: Metrics = NO_METRICS,
): Promise<boolean> {
  const closed = await db
    .update(payments)
    .set({ status, completedAt: sql`now()` })
    .where(and(eq(payments.sessionId, sessionId), eq(payments.status, 'open')))
    .returning({ id: payments.id });
  if (closed.length > 0) metrics.payment(status);
  return closed.length > 0;
}
