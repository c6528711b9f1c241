// The packages this deployment sells: the contract's table, with each id replaced by the
// configured Stripe price id when Stripe serves payments. The checkout accepts only these ids.
import { TOKEN_PACKAGES, type TokenPackage } from '../../contract/packages';
import type { StripeConfig } from '../config';

export function activePackages(stripePrices: StripeConfig['prices'] | null): readonly TokenPackage[] {
  if (!stripePrices) return TOKEN_PACKAGES;
  return TOKEN_PACKAGES.map((pack) => {
    const priceId = stripePrices[pack.tokens as keyof StripeConfig['prices']];
    if (!priceId) throw new Error(`no Stripe price configured for the ${pack.name} package`);
    return { ...pack, id: priceId };
  });
}
