import { CircleCheck, Info, LoaderCircle, X } from 'lucide-react';
import { formatTokens } from '../../lib/format-cost';
import type { CheckoutReturn } from './use-checkout-return';

type Props = {
  result: CheckoutReturn;
  /** The live balance from the server's profile. */
  balance: number | null;
  onDismiss(): void;
};

export const CHECKOUT_TEXT = {
  confirming: 'Payment received. Adding your tokens…',
  confirmed: (tokens: number, balance: number | null) =>
    `Payment complete: ${formatTokens(tokens)} added.${balance === null ? '' : ` Your balance is now ${formatTokens(balance)}.`}`,
  delayed:
    'Your payment went through. Your tokens are on their way and will appear in your balance within a minute or two.',
  canceled: 'Checkout canceled. Nothing was charged.',
} as const;

/** What happened at the checkout the user just came back from. */
export function CheckoutBanner({ result, balance, onDismiss }: Props) {
  if (result.state === 'none') return null;
  const tone = result.state === 'confirmed' ? 'success' : 'info';
  const Icon = result.state === 'confirmed' ? CircleCheck : result.state === 'confirming' ? LoaderCircle : Info;
  const text =
    result.state === 'confirmed'
      ? CHECKOUT_TEXT.confirmed(result.purchase.tokens, balance)
      : result.state === 'confirming'
        ? CHECKOUT_TEXT.confirming
        : result.state === 'delayed'
          ? CHECKOUT_TEXT.delayed
          : CHECKOUT_TEXT.canceled;
  return (
    <div className="pp-checkout-banner" data-tone={tone} role="status" data-testid="checkout-banner">
      <Icon
        className={`pp-checkout-banner__icon${result.state === 'confirming' ? ' pp-spin' : ''}`}
        size={20}
        aria-hidden="true"
      />
      <p className="pp-checkout-banner__text">{text}</p>
      {result.state === 'confirming' ? null : (
        <button type="button" className="pp-checkout-banner__close" aria-label="Dismiss" onClick={onDismiss}>
          <X size={18} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
