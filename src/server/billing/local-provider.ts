import { randomBytes } from 'node:crypto';
import type { PaymentProvider } from './payment-provider';

/** Records customers locally: an id in Stripe's shape, so the rest of the system treats both alike. */
export function createLocalPaymentProvider(): PaymentProvider {
  return {
    kind: 'local',
    async createCustomer() {
      return { customerId: `cus_local_${randomBytes(10).toString('hex')}` };
    },
  };
}
