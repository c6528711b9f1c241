import './purchases.css';
import { Check } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { formatPrice, type TokenPackage } from '../../../contract/packages';
import { startCheckout } from '../../lib/purchases/purchase-api';
import { purchaseAccess, purchaseAlert, purchaseNote } from '../../lib/purchases/purchase-rules';
import { usePackages } from '../../lib/purchases/use-packages';
import { useAuth } from '../../lib/session/auth-context';
import { SupportText } from '../SupportText';

type Props = {
  /** What Buy Tokens does for a visitor: the landing page scrolls up to its sign-in form. */
  onSignedOut(): void;
};

const centsPerToken = (p: TokenPackage) => p.priceCents / p.tokens;

/**
 * The three token packages with their Buy Tokens buttons and the purchase rules of the spec's
 * section 5. A signed-in user who may not buy gets buttons marked disabled (aria-disabled) that still
 * answer a click with the spec's alert, so the reason is never a mystery; while the first auth check
 * or a checkout request runs they are truly disabled.
 */
export function PackageCards({ onSignedOut }: Props) {
  const { status, user, profile } = useAuth();
  const packages = usePackages();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const idPrefix = useId();
  const access = purchaseAccess(status, profile);
  const note = purchaseNote(access);
  const bestRate = Math.min(...packages.map(centsPerToken));

  // Back from the checkout with the browser's Back button, the page may come from the back-forward
  // cache with its buttons still waiting: free them.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPendingId(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  async function buy(pack: TokenPackage) {
    if (access === 'signed-out') return onSignedOut();
    const alert = purchaseAlert(access);
    if (alert) return window.alert(alert);
    if (access !== 'allowed' || !user || pendingId) return;
    setPendingId(pack.id);
    const result = await startCheckout(pack.id, user.id, user.email);
    if (result.ok) {
      window.location.assign(result.url);
      return;
    }
    setPendingId(null);
    if (result.alert) window.alert(result.alert);
  }

  return (
    <div className="pp-packages">
      <ul className="pp-packages__grid">
        {packages.map((pack) => {
          const nameId = `${idPrefix}-${pack.id}`;
          const best = packages.length > 1 && centsPerToken(pack) === bestRate;
          const blocked = access !== 'allowed' && access !== 'signed-out' && access !== 'loading';
          return (
            <li key={pack.id}>
              <article className="pp-card pp-package" data-best={best} aria-labelledby={nameId}>
                <div className="pp-package__head">
                  <h3 id={nameId} className="pp-package__name">
                    {pack.name}
                  </h3>
                  {best ? <span className="pp-package__badge">Best value</span> : null}
                </div>
                <p className="pp-package__price pp-tabular">
                  <span className="pp-package__amount">{formatPrice(pack.priceCents)}</span>
                  <span className="pp-package__per">/package</span>
                </p>
                <p className="pp-package__rate pp-tabular">{centsPerToken(pack).toFixed(2)}¢ per token</p>
                <ul className="pp-package__features" aria-label={`${pack.name} includes`}>
                  {pack.features.map((feature) => (
                    <li key={feature}>
                      <Check className="pp-package__check" size={16} strokeWidth={3} aria-hidden="true" />
                      {feature}
                    </li>
                  ))}
                </ul>
                <button
                  type="button"
                  className="pp-button pp-button--primary pp-package__buy"
                  aria-describedby={nameId}
                  disabled={access === 'loading' || pendingId !== null}
                  aria-disabled={blocked || undefined}
                  onClick={() => void buy(pack)}
                >
                  {pendingId === pack.id ? 'Processing...' : 'Buy Tokens'}
                </button>
              </article>
            </li>
          );
        })}
      </ul>
      {note ? (
        <p className="pp-packages__note" data-testid="purchase-note">
          <SupportText text={note} />
        </p>
      ) : null}
    </div>
  );
}
