// The browser's purchase calls: the packages on sale, starting a checkout, the user's history.
import { PURCHASE_MESSAGES, type Purchase, TOKEN_PACKAGES, type TokenPackage } from '../../../contract/packages';
import { errorMessage, getJson, postJson } from '../api';

export const PURCHASE_API = {
  packages: '/api/packages',
  checkout: '/api/create-checkout-session',
  purchases: '/api/purchases',
  cancel: (id: string) => `/api/purchases/${encodeURIComponent(id)}/cancel`,
} as const;

export type { Purchase };

const isPackage = (value: unknown): value is TokenPackage => {
  const p = value as Partial<TokenPackage> | null;
  return (
    typeof p?.id === 'string' &&
    typeof p.name === 'string' &&
    typeof p.tokens === 'number' &&
    typeof p.priceCents === 'number' &&
    Array.isArray(p.features)
  );
};

let packagesRequest: Promise<readonly TokenPackage[]> | null = null;

/**
 * The server's packages (their ids are the payment provider's price ids, which differ with Stripe).
 * Until it answers, or when it cannot, the built-in table stands in. Read once per page load.
 */
export function loadPackages(): Promise<readonly TokenPackage[]> {
  packagesRequest ??= getJson<{ packages?: unknown }>(PURCHASE_API.packages).then(
    (result) => {
      const list = result.data?.packages;
      if (result.ok && Array.isArray(list) && list.length > 0 && list.every(isPackage)) return list;
      packagesRequest = null;
      return TOKEN_PACKAGES;
    },
    () => {
      packagesRequest = null;
      return TOKEN_PACKAGES;
    },
  );
  return packagesRequest;
}

/** Test hook: forget the cached answer. */
export function forgetPackages() {
  packagesRequest = null;
}

export type CheckoutStart = { ok: true; url: string } | { ok: false; alert: string | null };

const ALERTS: readonly string[] = [PURCHASE_MESSAGES.verifyAlert, PURCHASE_MESSAGES.blockedAlert];

/**
 * POST /api/create-checkout-session with the spec's body. When the server refuses with one of the
 * spec's purchase alerts (our copy of the profile was stale), that alert is passed on; other
 * failures are only logged, as the spec's error catalogue says.
 */
export async function startCheckout(priceId: string, userId: string, userEmail: string): Promise<CheckoutStart> {
  try {
    const result = await postJson<{ id?: string; url?: string }>(PURCHASE_API.checkout, { priceId, userId, userEmail });
    if (result.ok && typeof result.data?.url === 'string') return { ok: true, url: result.data.url };
    const message = errorMessage(result.data);
    if (message && ALERTS.includes(message)) return { ok: false, alert: message };
    console.error('Network response was not ok', result.status, message);
  } catch (error) {
    console.error('Network response was not ok', error);
  }
  return { ok: false, alert: null };
}

/** The signed-in user's purchases, newest first; null when they cannot be read. */
export async function loadPurchases(): Promise<Purchase[] | null> {
  try {
    const result = await getJson<{ purchases?: Purchase[] }>(PURCHASE_API.purchases);
    return result.ok && Array.isArray(result.data?.purchases) ? result.data.purchases : null;
  } catch {
    return null;
  }
}

/** Cancels the user's open checkout: the purchase as it now stands, or the server's reason it could not. */
export async function cancelCheckout(
  id: string,
): Promise<{ ok: true; purchase: Purchase } | { ok: false; error: string }> {
  try {
    const result = await postJson<{ purchase?: Purchase }>(PURCHASE_API.cancel(id), {});
    if (result.ok && result.data?.purchase) return { ok: true, purchase: result.data.purchase };
    return { ok: false, error: errorMessage(result.data) ?? 'The checkout could not be cancelled. Please try again.' };
  } catch {
    return { ok: false, error: 'The server could not be reached. Please try again.' };
  }
}
