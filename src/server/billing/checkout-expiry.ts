// Checkout sessions end after an hour without payment, for both providers: Stripe's session is
// created with this expiry (expires_at), the local checkout ends its own. An expired session can
// no longer be paid, and the purchase history shows it as expired rather than pending forever.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { payments } from '../db/schema';

/** One hour: within Stripe's allowed range for expires_at (30 minutes to 24 hours). */
export const CHECKOUT_EXPIRY_SECONDS = 60 * 60;

/** The expires_at (Unix seconds) of a checkout session created now. */
export const checkoutExpiresAt = (now = Date.now()) => Math.floor(now / 1000) + CHECKOUT_EXPIRY_SECONDS;

/** When a session created at `createdAt` ends unless it is paid. */
export const checkoutExpiresAtOf = (createdAt: Date) => new Date(createdAt.getTime() + CHECKOUT_EXPIRY_SECONDS * 1000);

/** Whether a session created at `createdAt` is past its expiry. */
export const isCheckoutExpired = (createdAt: Date, now = Date.now()) =>
  now >= createdAt.getTime() + CHECKOUT_EXPIRY_SECONDS * 1000;

/**
 * Marks the user's open sessions older than the expiry as expired, and says how many it marked (the
 * caller counts them in metrics). Our row is written just after the provider's session, so this
 * never runs ahead of Stripe; a payment completed in time and confirmed late still turns the row
 * paid (fulfilment does not look at the status).
 */
export async function expireStaleCheckouts(db: AppDb, userId: string): Promise<number> {
  const expired = await db
    .update(payments)
    .set({ status: 'expired', completedAt: sql`now()` })
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.status, 'open'),
        lt(payments.createdAt, sql`now() - make_interval(secs => ${CHECKOUT_EXPIRY_SECONDS})`),
      ),
    )
    .returning({ id: payments.id });
  return expired.length;
}
