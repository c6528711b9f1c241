import { randomBytes } from 'node:crypto';
import type { PaymentProvider } from './payment-provider';

export const LOCAL_CHECKOUT_PATH = '/checkout/local';

/**
 * Records customers locally (an id in Stripe's shape) and sells through the built-in test checkout
 * page (localCheckoutRoutes in billing/routes.ts), whose Pay button runs the same fulfilment as Stripe's webhook.
 */
export function createLocalPaymentProvider(): PaymentProvider {
  return {
    kind: 'local',
    async createCustomer() {
      return { customerId: `cus_local_${randomBytes(10).toString('hex')}` };
    },
    async createCheckoutSession(request) {
      const sessionId = `cs_local_${request.paymentId}`;
      return { sessionId, url: `${LOCAL_CHECKOUT_PATH}/${sessionId}` };
    },
    // The local checkout's sessions and customers are only our own rows: closing those is enough.
    async expireCheckoutSession() {},
    async deleteCustomer() {},
  };
}
