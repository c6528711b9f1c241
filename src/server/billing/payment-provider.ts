// The payment provider interface. Stripe comes with the payments issue; the local provider is the
// default, so a fresh machine has customers and (later) a built-in checkout with no keys.
export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  /** Creates the provider's customer for a user; the id is stored on the profile. */
  createCustomer(input: { userId: string; email: string }): Promise<{ customerId: string }>;
}
