import { Receipt } from 'lucide-react';
import { useId } from 'react';
import type { TokenPackage } from '../../../contract/packages';
import type { Purchase } from '../../lib/purchases/purchase-api';

type Props = {
  /** null while loading; 'error' when the list could not be read. */
  purchases: Purchase[] | null | 'error';
  packages: readonly TokenPackage[];
  onRetry(): void;
};

export const PURCHASE_STATUS_LABELS: Record<string, string> = {
  open: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
  // An abandoned checkout, ended after its hour (the server's checkout expiry).
  expired: 'Expired',
};

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function packageName(purchase: Purchase, packages: readonly TokenPackage[]) {
  return packages.find((p) => p.id === purchase.packageId)?.name ?? `${purchase.tokens} Tokens`;
}

/** The user's purchases, newest first: date, package, amount and status. */
export function PurchaseHistory({ purchases, packages, onRetry }: Props) {
  const titleId = useId();
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
              <td data-label="Status">
                <span className="pp-status" data-status={purchase.status}>
                  {PURCHASE_STATUS_LABELS[purchase.status] ?? purchase.status}
                </span>
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
