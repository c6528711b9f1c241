import { Receipt } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { TokenPackage } from '../../../contract/packages';
import { cancelCheckout, type Purchase } from '../../lib/purchases/purchase-api';

type Props = {
  /** null while loading; 'error' when the list could not be read. */
  purchases: Purchase[] | null | 'error';
  packages: readonly TokenPackage[];
  onRetry(): void;
  /** A purchase changed here (an open checkout cancelled): the list shows it as the server answered. */
  onChanged(purchase: Purchase): void;
};

export const PURCHASE_STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  paid: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
  // An abandoned checkout, ended after its hour (the server's checkout expiry).
  expired: 'Expired',
  refunded: 'Refunded',
  refund_failed: 'Refund pending',
};

/** "Open – expires in 42 min": an open checkout says how long it can still be paid (or cancelled). */
export function openStatusText(expiresAt: string | null, now: number): string {
  if (!expiresAt) return PURCHASE_STATUS_LABELS.open as string;
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return PURCHASE_STATUS_LABELS.expired as string;
  return `Open – expires in ${Math.max(1, Math.ceil(left / 60_000))} min`;
}

/** The time now, again every minute while `active` (the countdowns of open checkouts). */
function useMinuteClock(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/** The status of one purchase; an open checkout's countdown and its Cancel button. */
function PurchaseStatus({
  purchase,
  now,
  onChanged,
}: {
  purchase: Purchase;
  now: number;
  onChanged(p: Purchase): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = purchase.status === 'open' && !(purchase.expiresAt && Date.parse(purchase.expiresAt) <= now);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    const answer = await cancelCheckout(purchase.id);
    setBusy(false);
    if (answer.ok) onChanged(answer.purchase);
    else setError(answer.error);
  };
  const status = purchase.status === 'open' && !open ? 'expired' : purchase.status;
  return (
    <div className="pp-history__status">
      <span className="pp-status" data-status={status}>
        {purchase.status === 'open'
          ? openStatusText(purchase.expiresAt, now)
          : (PURCHASE_STATUS_LABELS[purchase.status] ?? purchase.status)}
      </span>
      {open ? (
        <button
          type="button"
          className="pp-button pp-button--secondary pp-button--sm"
          disabled={busy}
          aria-label={`Cancel the checkout of ${purchase.amount}`}
          onClick={() => void cancel()}
        >
          {busy ? 'Cancelling…' : 'Cancel'}
        </button>
      ) : null}
      {error ? (
        <p className="pp-history__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function packageName(purchase: Purchase, packages: readonly TokenPackage[]) {
  return packages.find((p) => p.id === purchase.packageId)?.name ?? `${purchase.tokens} Tokens`;
}

/** The user's purchases, newest first: date, package, amount and status. */
export function PurchaseHistory({ purchases, packages, onRetry, onChanged }: Props) {
  const titleId = useId();
  const now = useMinuteClock(Array.isArray(purchases) && purchases.some((p) => p.status === 'open'));
  let body: React.ReactNode;
  if (purchases === null) {
    body = (
      <div className="pp-history__loading" aria-busy="true">
        <span className="pp-visually-hidden" role="status">
          Loading your purchases…
        </span>
        <span className="pp-skeleton pp-skeleton--field" />
        <span className="pp-skeleton pp-skeleton--field" />
      </div>
    );
  } else if (purchases === 'error') {
    body = (
      <div className="pp-history__empty">
        <p>We could not load your purchases right now.</p>
        <button type="button" className="pp-button pp-button--secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (purchases.length === 0) {
    body = (
      <div className="pp-history__empty">
        <Receipt size={28} aria-hidden="true" />
        <p>No purchases yet. Each package you buy will be listed here.</p>
      </div>
    );
  } else {
    body = (
      <table className="pp-history__table" aria-labelledby={titleId} data-testid="purchase-history">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Package</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {purchases.map((purchase) => (
            <tr key={purchase.id}>
              <td data-label="Date">
                <time dateTime={purchase.createdAt}>{dateFormat.format(new Date(purchase.createdAt))}</time>
              </td>
              <td data-label="Package">{packageName(purchase, packages)}</td>
              <td data-label="Amount" className="pp-tabular">
                {purchase.amount}
              </td>
              <td data-label="Status" data-open={purchase.status === 'open' ? '' : undefined}>
                <PurchaseStatus purchase={purchase} now={now} onChanged={onChanged} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <section className="pp-card pp-history" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-card__title">
        Purchase history
      </h2>
      {body}
    </section>
  );
}
