import { Coins } from 'lucide-react';
import { formatTokens } from '../lib/format-cost';

type Props = {
  /** The signed-in user's balance, or null when nobody is signed in (or it is not known yet). */
  balance: number | null;
  /** Smaller rendering for the mobile header. */
  compact?: boolean;
};

/** The always-visible token balance. Without a balance it says so instead of showing a number. */
export function TokenBalance({ balance, compact = false }: Props) {
  const className = `pp-balance${compact ? ' pp-balance--compact' : ''}${balance === null ? ' pp-balance--empty' : ''}`;
  if (balance === null) {
    return (
      <div className={className} data-testid="token-balance">
        <Coins className="pp-balance__icon" size={18} aria-hidden="true" />
        {compact ? (
          <span className="pp-balance__text" title="Sign in to see your balance">
            <span className="pp-visually-hidden">Token balance: sign in to see your balance</span>
            <span aria-hidden="true">— tokens</span>
          </span>
        ) : (
          <span className="pp-balance__text">
            <span className="pp-balance__label">Token balance</span>
            <span className="pp-balance__hint">Sign in to see your balance</span>
          </span>
        )}
      </div>
    );
  }
  return (
    <div className={className} data-testid="token-balance">
      <Coins className="pp-balance__icon" size={18} aria-hidden="true" />
      <span className="pp-balance__text">
        {compact ? null : <span className="pp-balance__label">Token balance</span>}
        <span className="pp-balance__value pp-tabular">
          {compact ? <span className="pp-visually-hidden">Token balance: </span> : null}
          {formatTokens(balance)}
        </span>
      </span>
    </div>
  );
}
