import { Coins, FlaskConical } from 'lucide-react';

/** What a user reads before the click on a tool the demo serves (decision 020): free, and not AI. */
export const FREE_PREVIEW_NOTICE = 'Free preview: a labelled sample, not AI.';
export const FREE_PREVIEW_DETAIL = 'It takes no tokens.';
/** What a tool's button and header say in place of a price where it is given as a free preview. */
export { FREE_PREVIEW_PRICE } from '../../../lib/tool-prices';

/**
 * Beside the action button of a tool given as a free preview: the demo's notice, or the tool's own
 * where part of its result is real (Background Swap's cut-out on the local engine).
 */
export function FreePreviewNotice({ notice = FREE_PREVIEW_NOTICE }: { notice?: string }) {
  return (
    <p className="pp-notice pp-free-preview" data-testid="demo-notice">
      <FlaskConical size={18} aria-hidden="true" className="pp-notice__icon" />
      <span>
        <strong>{notice}</strong> {FREE_PREVIEW_DETAIL}
      </span>
    </p>
  );
}

/** Beside the action button of a tool this server prices below the list price: why (decision 039). */
export function LowerPriceNotice({ note }: { note: string }) {
  return (
    <p className="pp-notice pp-price-notice" data-testid="price-notice">
      <Coins size={18} aria-hidden="true" className="pp-notice__icon" />
      <span>{note}</span>
    </p>
  );
}
