import { ArrowLeft, Coins } from 'lucide-react';
import { useState } from 'react';
import { toolById } from '../../../contract/tools';
import { formatTokens } from '../../lib/format-cost';
import { Link } from '../../lib/router';
import { readToolDraft } from '../../lib/tool-draft';

/** Why the user is here when a tool sent them (too few tokens), and the way back to their kept draft. */
export function ToolDraftNotice({ balance }: { balance: number | null }) {
  const [draft] = useState(() => readToolDraft());
  if (!draft) return null;
  const tool = toolById(draft.toolId);
  const kept = draft.imageDropped
    ? 'Your settings are kept; the image was too large to keep, so please choose it again.'
    : draft.image
      ? 'Your image and settings are kept for when you go back.'
      : draft.batchImages
        ? `Your ${draft.batchImages === 1 ? 'image' : `${draft.batchImages} images`} and settings are kept for when you go back.`
        : 'Your settings are kept for when you go back.';
  return (
    <section className="pp-card pp-tool-draft" aria-label="Why you are here" data-testid="tool-draft-notice">
      <Coins className="pp-tool-draft__icon" size={20} aria-hidden="true" />
      <div className="pp-tool-draft__text">
        <p>
          <strong>
            {tool.title} needs {formatTokens(draft.cost)}
          </strong>
          {balance === null ? '.' : `; you have ${formatTokens(balance)}.`} {kept}
        </p>
        <Link className="pp-link-button" to={tool.route}>
          <ArrowLeft size={16} aria-hidden="true" />
          Back to {tool.title}
        </Link>
      </div>
    </section>
  );
}
