import './tokens.css';
import { Coins } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { PackageCards } from '../../components/purchases/PackageCards';
import { SignInPromptCard } from '../../components/SignInPromptCard';
import { formatTokens } from '../../lib/format-cost';
import { loadPurchases, type Purchase } from '../../lib/purchases/purchase-api';
import { usePackages } from '../../lib/purchases/use-packages';
import { useNavigate, useSearchParams } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';
import { useSignedInHint } from '../../lib/session/signed-in-hint';
import { SIGN_IN_LINK } from '../../lib/sign-in-link';
import { type ToolPrices, unitsOf, useToolPrices } from '../../lib/tool-prices';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CheckoutBanner } from './CheckoutBanner';
import { PurchaseHistory } from './PurchaseHistory';
import { ToolDraftNotice } from './ToolDraftNotice';
import { useCheckoutReturn } from './use-checkout-return';

/** What /tokens tells a visitor. */
const SIGN_IN_PROMPT = {
  title: 'Log in to buy tokens',
  text: 'Please log in to see your balance, buy a package and find your past purchases.',
  action: 'Log in or create an account',
};

/** What a balance buys here, told with a tool that is real on this server (ToolPrices.example). */
export function balanceHint(tokens: number | null, { example }: ToolPrices): string {
  if (tokens === null) return 'Your balance cannot be read right now.';
  if (tokens === 0) return 'No tokens left: choose a package below to keep creating. Tokens never expire.';
  if (!example) return 'Every tool is a free preview here for now: it takes no tokens. Tokens never expire.';
  const count = Math.floor(tokens / example.price);
  if (count === 0) {
    return `Not enough for ${unitsOf(example.tool, 1)} yet (${formatTokens(example.price)}): choose a package below. Tokens never expire.`;
  }
  return `Enough for ${unitsOf(example.tool, count)}. Tokens never expire.`;
}

function BalanceCard({ tokens }: { tokens: number | null }) {
  const titleId = useId();
  const prices = useToolPrices();
  return (
    <section className="pp-card pp-token-balance" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-token-balance__label">
        Your balance
      </h2>
      <p className="pp-token-balance__value pp-tabular" data-testid="tokens-balance">
        {tokens === null ? '—' : formatTokens(tokens)}
      </p>
      <p className="pp-token-balance__hint" data-testid="tokens-balance-hint">
        {balanceHint(tokens, prices)}
      </p>
    </section>
  );
}

/** /tokens: the balance, the three packages and the purchase history; confirms a finished checkout. */
export function TokensPage() {
  useDocumentTitle('Tokens');
  const { status, profile } = useAuth();
  const wasSignedIn = useSignedInHint();
  const navigate = useNavigate();
  const packages = usePackages();
  const [params, setParams] = useSearchParams();
  const [purchases, setPurchases] = useState<Purchase[] | null | 'error'>(null);

  // The history is read here and by the checkout confirmation; only the newest read may show.
  const readTicket = useRef(0);
  const reloadPurchases = useCallback(async () => {
    const ticket = ++readTicket.current;
    setPurchases(null);
    const list = await loadPurchases();
    if (ticket === readTicket.current) setPurchases(list ?? 'error');
  }, []);
  const showPurchases = useCallback((list: Purchase[]) => {
    readTicket.current++;
    setPurchases(list);
  }, []);

  useEffect(() => {
    if (status === 'signed-in') void reloadPurchases();
  }, [status, reloadPurchases]);

  const checkout = useCheckoutReturn(params.get('checkout'), showPurchases);
  const dismissCheckout = () =>
    setParams(
      (current) => {
        current.delete('checkout');
        return current;
      },
      { replace: true },
    );

  return (
    <div className="pp-page pp-tokens">
      <PageHeader
        icon={Coins}
        title="Tokens"
        summary="Top up your balance with a token package. Tokens never expire and unused tokens roll over."
      />
      <CheckoutBanner result={checkout} balance={profile?.tokens ?? null} onDismiss={dismissCheckout} />
      <ToolDraftNotice balance={status === 'signed-in' ? (profile?.tokens ?? null) : null} />
      {status === 'signed-out' ? <SignInPromptCard {...SIGN_IN_PROMPT} /> : null}
      {status === 'signed-in' ? <BalanceCard tokens={profile?.tokens ?? null} /> : null}
      {status === 'loading' ? (
        // As tall as the card it most likely turns into (the balance when this browser was signed in
        // last time, else the sign-in card): the packages below stay put.
        <div className="pp-tokens__pending" aria-busy="true">
          <span className="pp-visually-hidden" role="status">
            Loading your balance…
          </span>
          <div className="pp-tokens__pending-room" aria-hidden="true" inert>
            {wasSignedIn ? <BalanceCard tokens={1} /> : <SignInPromptCard {...SIGN_IN_PROMPT} />}
          </div>
          <span className="pp-skeleton pp-tokens__pending-shimmer" />
        </div>
      ) : null}

      <section className="pp-tokens__packages" aria-labelledby="tokens-packages-title">
        <h2 id="tokens-packages-title" className="pp-tokens__title">
          Token packages
        </h2>
        <PackageCards onSignedOut={() => navigate(SIGN_IN_LINK)} />
      </section>

      {status === 'signed-in' ? (
        <PurchaseHistory
          purchases={purchases}
          packages={packages}
          onRetry={() => void reloadPurchases()}
          onChanged={(changed) =>
            setPurchases((current) =>
              Array.isArray(current) ? current.map((p) => (p.id === changed.id ? changed : p)) : current,
            )
          }
        />
      ) : null}
    </div>
  );
}
