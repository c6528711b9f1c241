import { Coins } from 'lucide-react';
import { formatTokens } from '../lib/format-cost';
import { Link } from '../lib/router';
import { useAuth } from '../lib/session/auth-context';
import { SIGN_IN_LINK } from '../lib/sign-in-link';

type Props = {
  /** Smaller rendering for the mobile header. */
  compact?: boolean;
};

/**
 * The always-visible token balance: the signed-in user's live balance; a skeleton during the first
 * auth check; without a balance (signed out, or unreadable right now) it says so instead of a number.
 */
export function TokenBalance({ compact = false }: Props) {
  const { status, profile } = useAuth();
  const base = `pp-balance${compact ? ' pp-balance--compact' : ''}`;

  if (status === 'loading') {
    return (
      <div className={`${base} pp-balance--loading`} data-testid="token-balance" aria-busy="true">
        <Coins className="pp-balance__icon" size={18} aria-hidden="true" />
        <span className="pp-balance__text">
          {compact ? null : <span className="pp-balance__label">Token balance</span>}
          <span className="pp-skeleton pp-balance__skeleton" />
          <span className="pp-visually-hidden">Loading your token balance…</span>
        </span>
      </div>
    );
  }

  if (status === 'signed-out' || !profile) {
    const hint = status === 'signed-out' ? 'Sign in to see your balance' : 'Balance unavailable right now';
    return (
      <div className={`${base} pp-balance--empty`} data-testid="token-balance">
        <Coins className="pp-balance__icon" size={18} aria-hidden="true" />
        {compact && status === 'signed-out' ? (
          <Link to={SIGN_IN_LINK} className="pp-balance__text pp-balance__sign-in">
            <span className="pp-visually-hidden">Token balance: </span>
            Sign in
            <span className="pp-visually-hidden"> to see your balance</span>
          </Link>
        ) : compact ? (
          <span className="pp-balance__text" title={hint}>
            <span className="pp-visually-hidden">Token balance: {hint.toLowerCase()}</span>
            <span aria-hidden="true">— tokens</span>
          </span>
        ) : (
          <span className="pp-balance__text">
            <span className="pp-balance__label">Token balance</span>
            <span className="pp-balance__hint">{hint}</span>
          </span>
        )}
      </div>
    );
  }

  return (
    <div className={base} data-testid="token-balance">
      <Coins className="pp-balance__icon" size={18} aria-hidden="true" />
      <span className="pp-balance__text">
        {compact ? null : <span className="pp-balance__label">Token balance</span>}
        <span className="pp-balance__value pp-tabular">
          {compact ? <span className="pp-visually-hidden">Token balance: </span> : null}
          {formatTokens(profile.tokens)}
        </span>
      </span>
    </div>
  );
}
