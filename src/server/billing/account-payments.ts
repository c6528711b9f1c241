// What account deletion does to payments (issue 36): the account's open checkouts end at the
// provider, so a tab left open cannot pay into a deleted account, and the provider's customer (with
// its email) goes too. A payment that still arrives is refunded, never credited (stripe-webhook.ts);
// one whose refund failed stays an alert (health, `npm run admin -- alerts`) until it succeeds.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { payments, profiles } from '../db/schema';
import type { Logger } from '../log';
import type { PaymentProvider } from './payment-provider';

type Deps = { db: AppDb; payments: PaymentProvider; logger: Logger };

/**
 * Ends the user's open checkouts (the provider's sessions, then our rows) and answers the
 * provider's customer id, to be deleted once the account is. A session the provider will not end
 * (already paid, the provider down) is logged: its payment, if one comes, is refunded.
 */
export async function endOpenCheckouts(deps: Deps, userId: string): Promise<string | null> {
  const open = await deps.db
    .select({ sessionId: payments.sessionId })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, 'open')));
  for (const { sessionId } of open) {
    try {
      await deps.payments.expireCheckoutSession(sessionId);
    } catch (error) {
      deps.logger.warn('an open checkout of a deleted account could not be expired', { userId, sessionId, error });
    }
  }
  await deps.db
    .update(payments)
    .set({ status: 'expired', completedAt: sql`now()` })
    .where(and(eq(payments.userId, userId), eq(payments.status, 'open')));
  const [profile] = await deps.db
    .select({ customerId: profiles.stripeCustomerId })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return profile?.customerId ?? null;
}

/** Deletes the deleted account's customer at the provider; a failure is logged, not the user's problem. */
export async function deleteProviderCustomer(deps: Deps, userId: string, customerId: string | null): Promise<void> {
  if (!customerId) return;
  try {
    await deps.payments.deleteCustomer(customerId);
  } catch (error) {
    deps.logger.error('the payment customer of a deleted account could not be deleted', { userId, customerId, error });
  }
}

/** Payments made after their account was deleted whose refund failed: the operator refunds them. */
export async function unrefundedPayments(db: AppDb) {
  return db
    .select({
      sessionId: payments.sessionId,
      userId: payments.userId,
      amountCents: payments.amountCents,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(eq(payments.status, 'refund_failed'))
    .orderBy(asc(payments.createdAt));
}
