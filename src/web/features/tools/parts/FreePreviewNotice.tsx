import { FlaskConical } from 'lucide-react';

/** What a user reads before the click on a tool the demo serves (decision 020): free, and not AI. */
export const FREE_PREVIEW_NOTICE = 'Free preview: a labelled sample, not AI.';
export const FREE_PREVIEW_DETAIL = 'It takes no tokens.';

/** Beside the action button of a tool the demo serves. */
export function FreePreviewNotice() {
  return (
    <p className="pp-notice pp-free-preview" data-testid="demo-notice">
      <FlaskConical size={18} aria-hidden="true" className="pp-notice__icon" />
      <span>
        <strong>{FREE_PREVIEW_NOTICE}</strong> {FREE_PREVIEW_DETAIL}
      </span>
    </p>
  );
}
