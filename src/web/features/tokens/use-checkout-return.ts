import { useEffect, useState } from 'react';
import { loadPurchases, type Purchase } from '../../lib/purchases/purchase-api';
import { useAuth } from '../../lib/session/auth-context';

/** The payment provider's confirmation can reach us a moment after the browser: ask a few times. */
export const CONFIRMATION_ATTEMPTS = 10;
export const CONFIRMATION_INTERVAL_MS = 1_000;

export type CheckoutReturn =
  | { state: 'none' }
  | { state: 'canceled' }
  | { state: 'confirming' }
  | { state: 'confirmed'; purchase: Purchase }
  | { state: 'delayed' };

/**
 * After the checkout sends the user back (?checkout=success), waits until the server has credited the
 * purchase: the newest purchase is paid (the credit is in the same transaction), then re-reads the
 * profile so that the balance shown is the server's. `onPurchases` receives each list it read.
 */
export function useCheckoutReturn(checkout: string | null, onPurchases: (list: Purchase[]) => void): CheckoutReturn {
  const { status, refreshProfile } = useAuth();
  const [result, setResult] = useState<CheckoutReturn>({ state: 'none' });

  useEffect(() => {
    if (checkout === 'canceled') return setResult({ state: 'canceled' });
    if (checkout !== 'success') return setResult({ state: 'none' });
    if (status !== 'signed-in') return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setResult({ state: 'confirming' });
    const attempt = async (n: number) => {
      const list = await loadPurchases();
      if (!live) return;
      if (list) onPurchases(list);
      const newest = list?.[0];
      if (newest?.status === 'paid') {
        await refreshProfile();
        if (live) setResult({ state: 'confirmed', purchase: newest });
        return;
      }
      if (n + 1 >= CONFIRMATION_ATTEMPTS) return setResult({ state: 'delayed' });
      timer = setTimeout(() => void attempt(n + 1), CONFIRMATION_INTERVAL_MS);
    };
    void attempt(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [checkout, status, refreshProfile, onPurchases]);

  return result;
}
