// POST /api/webhooks/stripe: Stripe's events. No Origin (mounted before the Origin check): the raw
// body's signature is verified instead (5-minute tolerance), each event id is handled once
// (webhook_events), and only ids are taken from the payload: sessions and charges are re-read from
// Stripe before anything is credited or flagged. A failure answers 500 and forgets the event, so
// Stripe's retry is handled; a paid session is credited once however many events announce it.
import { and, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type Stripe from 'stripe';
import type { TokenPackage } from '../../../contract/packages';
import type { AppDb } from '../../db/client';
import { payments, profiles } from '../../db/schema';
import type { Logger } from '../../log';
import type { Metrics } from '../../observability/metrics';
import { claimWebhookEvent, releaseWebhookEvent } from '../../webhooks/webhook-events';
import { closePayment, fulfilPayment } from '../fulfilment';

export type StripeWebhookDeps = {
  db: AppDb;
  logger: Logger;
  /** Counts payments by outcome and the tokens they sold. */
  metrics: Metrics;
  /** What is sold here (activePackages): a session must be for one of these, at its price. */
  packages: readonly TokenPackage[];
  /** Null when Stripe is not configured (the route then answers 404). */
  stripe: { client: Stripe; webhookSecret: string } | null;
};

/** Stripe's own default: a signature older than this is refused (replays). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The SDK refuses signatures older than the tolerance but accepts any dated in the future; a
 * signature is refused here when its timestamp is further ahead than that same tolerance (clock
 * skew), as the Replicate check does.
 */
function rejectFutureSignature(header: string, nowSeconds = Math.floor(Date.now() / 1000)) {
  const timestamp = Number(header.match(/(?:^|,)\s*t=(\d+)/)?.[1]);
  if (Number.isFinite(timestamp) && timestamp - nowSeconds > SIGNATURE_TOLERANCE_SECONDS) {
    throw new Error('the signature is dated in the future');
  }
}

/** The event is Stripe's real one but cannot be honoured (e.g. a price we do not sell). */
class RejectedEvent extends Error {}

type Outcome = { credited?: boolean; refunded?: boolean; ignored?: string; flagged?: string };

export function stripeWebhookRoutes(deps: StripeWebhookDeps) {
  const { db, logger } = deps;
  return new Hono().post(
    '/stripe',
    // Bodies over 1 MB are refused before this, for every API route (security/body-limit.ts).
    async (c) => {
      if (!deps.stripe) return c.json({ error: 'Stripe webhooks are not enabled here' }, 404);
      const { client, webhookSecret } = deps.stripe;
      const rawBody = Buffer.from(await c.req.arrayBuffer());
      let event: Stripe.Event;
      try {
        rejectFutureSignature(c.req.header('stripe-signature') ?? '');
        event = client.webhooks.constructEvent(
          rawBody,
          c.req.header('stripe-signature') ?? '',
          webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
        );
      } catch (error) {
        logger.warn('stripe webhook refused', { reason: error instanceof Error ? error.message : String(error) });
        return c.json({ error: 'Invalid or expired Stripe signature' }, 400);
      }

      if (!(await claimWebhookEvent(db, 'stripe', event.id))) return c.json({ received: true, duplicate: true });
      try {
        const outcome = await handleEvent(deps, client, event);
        return c.json({ received: true, ...outcome });
      } catch (error) {
        await releaseWebhookEvent(db, 'stripe', event.id);
        if (error instanceof RejectedEvent) {
          // Nothing credited; logged for the operator, and Stripe keeps retrying until it is fixed.
          logger.error('stripe event rejected', { eventId: event.id, type: event.type, reason: error.message });
          return c.json({ error: error.message }, 422);
        }
        logger.error('stripe event failed; Stripe will retry it', { eventId: event.id, type: event.type, error });
        return c.json({ error: 'Could not handle the event now; retry later.' }, 500);
      }
    },
  );
}

async function handleEvent(deps: StripeWebhookDeps, stripe: Stripe, event: Stripe.Event): Promise<Outcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return creditSession(deps, stripe, event.data.object.id);
    case 'checkout.session.async_payment_failed':
      await closePayment(deps.db, event.data.object.id, 'failed', deps.metrics);
      return {};
    case 'checkout.session.expired':
      await closePayment(deps.db, event.data.object.id, 'expired', deps.metrics);
      return {};
    case 'charge.dispute.created':
      return flagChargeCustomer(deps, stripe, chargeId(event.data.object.charge), { isDispute: true });
    case 'radar.early_fraud_warning.created':
      return flagChargeCustomer(deps, stripe, chargeId(event.data.object.charge), { isFraudulent: true });
    default:
      return { ignored: event.type };
  }
}

/** Credits a session that Stripe (asked again, not the payload) says is paid for one of our packages. */
async function creditSession(deps: StripeWebhookDeps, stripe: Stripe, sessionId: string): Promise<Outcome> {
  const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
  // completed with a pending bank payment: async_payment_succeeded comes later.
  if (session.payment_status !== 'paid') return { ignored: `payment ${session.payment_status}` };
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.sessionId, session.id), eq(payments.provider, 'stripe')));
  if (!payment) {
    // Another application's session on the same Stripe account; or ours, whose payments row was
    // never written (the checkout call failed after Stripe made the session): the operator is told.
    if (session.client_reference_id) {
      deps.logger.warn('paid stripe session without a payment row', {
        sessionId: session.id,
        clientReferenceId: session.client_reference_id,
      });
    }
    return { ignored: 'unknown session' };
  }

  const items = session.line_items?.data ?? [];
  const priceId = items[0]?.price?.id;
  const pack = deps.packages.find((p) => p.id === priceId);
  if (items.length !== 1 || items[0]?.quantity !== 1 || !pack || priceId !== payment.packageId) {
    throw new RejectedEvent(`session ${session.id}: price ${priceId ?? 'none'} is not the package it was opened for`);
  }
  if (session.amount_subtotal !== pack.priceCents || session.metadata?.paymentId !== payment.id) {
    throw new RejectedEvent(
      `session ${session.id}: amount ${session.amount_subtotal} or payment id does not match package ${pack.id}`,
    );
  }
  if (payment.status === 'refunded') return { refunded: true };
  const result = await fulfilPayment(deps.db, session.id, deps.metrics);
  if (result?.accountDeleted) return refundUncreditedPayment(deps, stripe, session, 'account deleted');
  // Cancelled by its user, whose session Stripe expired first: Stripe should never take this money.
  if (result && 'canceled' in result) return refundUncreditedPayment(deps, stripe, session, 'checkout canceled');
  return { credited: result?.credited ?? false };
}

/**
 * A payment for a deleted account (its checkout was opened before the deletion and paid after), or
 * for a checkout its user cancelled: refunded in full, never credited. A failed refund marks the row refund_failed, an alert in
 * health and the admin's `alerts`, and answers 500 so that Stripe's retry refunds it again (the
 * idempotency key makes every try the same refund).
 */
async function refundUncreditedPayment(
  deps: StripeWebhookDeps,
  stripe: Stripe,
  session: Stripe.Checkout.Session,
  reason: 'account deleted' | 'checkout canceled',
): Promise<Outcome> {
  const paymentIntent =
    typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  const setStatus = async (status: 'refunded' | 'refund_failed') => {
    await deps.db.update(payments).set({ status, completedAt: sql`now()` }).where(eq(payments.sessionId, session.id));
    deps.metrics.payment(status);
  };
  try {
    if (!paymentIntent) throw new Error('the paid session has no payment intent');
    await stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { reason, sessionId: session.id } },
      { idempotencyKey: `refund-${session.id}` },
    );
  } catch (error) {
    await setStatus('refund_failed');
    deps.logger.error('ALERT: a payment that is not credited could not be refunded; Stripe will retry', {
      reason,
      sessionId: session.id,
      paymentIntent,
      error,
    });
    throw error;
  }
  await setStatus('refunded');
  deps.logger.warn('a payment that is not credited was refunded', { reason, sessionId: session.id, paymentIntent });
  return { refunded: true };
}

function chargeId(charge: string | Stripe.Charge | null): string | null {
  if (!charge) return null;
  return typeof charge === 'string' ? charge : charge.id;
}

/** Sets a flag on the profile of the charge's customer (re-read from Stripe). */
async function flagChargeCustomer(
  deps: StripeWebhookDeps,
  stripe: Stripe,
  charge: string | null,
  flag: { isDispute: true } | { isFraudulent: true },
): Promise<Outcome> {
  if (!charge) return { ignored: 'no charge' };
  const fresh = await stripe.charges.retrieve(charge);
  const customer = typeof fresh.customer === 'string' ? fresh.customer : fresh.customer?.id;
  if (!customer) return { ignored: 'charge without customer' };
  const flagged = await deps.db
    .update(profiles)
    .set(flag)
    .where(eq(profiles.stripeCustomerId, customer))
    .returning({ userId: profiles.userId });
  if (flagged.length === 0) {
    deps.logger.warn('Stripe flagged a customer we do not know', { customer, charge, ...flag });
    return { ignored: 'unknown customer' };
  }
  deps.logger.warn('account flagged by Stripe', { userIds: flagged.map((f) => f.userId), ...flag });
  return { flagged: Object.keys(flag)[0] };
}
