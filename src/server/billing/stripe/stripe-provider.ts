// Stripe as the payment provider: customers and hosted Checkout Sessions (mode payment). Tokens
// are credited by the webhook (stripe-webhook.ts), never by the browser's return to the app.
import type Stripe from 'stripe';
import type { StripeConfig } from '../../config';
import { checkoutExpiresAt } from '../checkout-expiry';
import type { PaymentProvider } from '../payment-provider';

/**
 * The SDK client; STRIPE_API_BASE (tests) becomes its host/port/protocol. The SDK is imported only
 * here: its 218 modules were an eighth of every start's module loading without Stripe configured.
 */
export async function createStripeClient(config: StripeConfig): Promise<Stripe> {
  const { default: StripeClient } = await import('stripe');
  return new StripeClient(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Picture Palette' },
    ...(config.api ?? {}),
  });
}

export function createStripePaymentProvider(stripe: Stripe): PaymentProvider {
  return {
    kind: 'stripe',
    async createCustomer({ userId, email }) {
      // The idempotency key makes the account-setup job's retries return the same customer.
      const customer = await stripe.customers.create(
        { email, metadata: { userId } },
        { idempotencyKey: `customer-${userId}` },
      );
      return { customerId: customer.id };
    },
    async createCheckoutSession(request) {
      const metadata = { userId: request.userId, paymentId: request.paymentId, priceId: request.priceId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ price: request.priceId, quantity: 1 }],
          client_reference_id: request.userId,
          metadata,
          payment_intent_data: { metadata },
          ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: checkoutExpiresAt(),
        },
        { idempotencyKey: `checkout-${request.paymentId}` },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { sessionId: session.id, url: session.url };
    },
    async expireCheckoutSession(sessionId) {
      await stripe.checkout.sessions.expire(sessionId);
    },
    async deleteCustomer(customerId) {
      await stripe.customers.del(customerId);
    },
  };
}
