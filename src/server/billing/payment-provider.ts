// The payment provider interface. Stripe comes with its own module; the local provider is the
// default, so a fresh machine has customers and a built-in test checkout with no keys.
export type CheckoutRequest = {
  /** Our payments row id (the local checkout's session id; Stripe's metadata). */
  paymentId: string;
  userId: string;
  email: string;
  customerId: string | null;
  priceId: string;
  name: string;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
};

export interface PaymentProvider {
  readonly kind: 'stripe' | 'local';
  /** Creates the provider's customer for a user; the id is stored on the profile. */
  createCustomer(input: { userId: string; email: string }): Promise<{ customerId: string }>;
  /** Starts a hosted checkout; the browser is sent to `url`. */
  createCheckoutSession(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** Ends an open checkout so that it can no longer be paid; throws for one already paid or ended. */
  expireCheckoutSession(sessionId: string): Promise<void>;
  /** Deletes the customer and the email the provider keeps with it (account deletion). */
  deleteCustomer(customerId: string): Promise<void>;
}
