// Token packages (product-spec.md section 3) and the purchase messages (section 5). The server
// sells only from this table: amounts and token counts never come from the browser.

export type TokenPackage = {
  /** The payment provider's price id (Stripe price ids are configured per deployment). */
  id: string;
  name: string;
  tokens: number;
  /** US cents: the spec's prices are $5, $10, $20. */
  priceCents: number;
  features: string[];
};

/** Local ids; with Stripe, STRIPE_PRICE_500/1100/2400 replace them (see server config). */
export const TOKEN_PACKAGES: readonly TokenPackage[] = [
  {
    id: 'price_local_500',
    name: '500 Tokens',
    tokens: 500,
    priceCents: 500,
    features: ['500 AI Photos', 'Upscale Photos', 'No expiration'],
  },
  {
    id: 'price_local_1100',
    name: '1100 Tokens',
    tokens: 1100,
    priceCents: 1000,
    features: ['1,100 AI Photos', 'Upscale Photos', 'No expiration'],
  },
  {
    id: 'price_local_2400',
    name: '2400 Tokens',
    tokens: 2400,
    priceCents: 2000,
    features: ['2,400 AI Photos', 'Upscale Photos', 'No expiration'],
  },
];

export const PURCHASE_MESSAGES = {
  verifyAlert: 'Please verify your email before making a purchase.',
  blockedAlert: 'You cannot make a purchase. Please contact support.',
  verifyNote: 'Please verify your email to make purchases.',
  disputeNote: 'Purchase unavailable due to open dispute. Please contact support.',
  fraudNote: 'Purchase unavailable due to fraud warning. Please contact support.',
  unknownPackage: 'priceId: is not one of our token packages',
  noSuchCheckout: 'This checkout does not exist or is not yours.',
  cancelFailed: 'The checkout could not be cancelled just now. Please try again in a moment.',
  alreadyPaid: 'This checkout was already paid: its tokens are in your balance.',
} as const;

/** One row of GET /api/purchases (src/server/billing/routes.ts), newest first. */
export type Purchase = {
  /** The provider's checkout session id. */
  id: string;
  packageId: string;
  tokens: number;
  /** Already formatted by the server, e.g. '$5.00'. */
  amount: string;
  /** open, paid, failed, canceled, expired, refunded, refund_failed. */
  status: string;
  createdAt: string;
  completedAt: string | null;
  /** An open checkout's end (an hour after it opened): until then it can be paid or cancelled. */
  expiresAt: string | null;
};

export const formatPrice = (cents: number) => `$${(cents / 100).toFixed(2)}`;
