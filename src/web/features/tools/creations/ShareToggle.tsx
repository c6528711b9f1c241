import { Copy, Link2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { Creation } from '../../../../contract/creations';
import { shareCreation, unshareCreation } from '../../../lib/creations/creations-api';

type Props = { creation: Creation; onChange: (shareUrl: string | null) => void };

/** The share link of one creation: off by default; on, an unguessable link to copy; off again revokes it. */
export function ShareToggle({ creation, onChange }: Props) {
  // The state asked for while the server answers: the switch moves on the click, as a checkbox does,
  // and falls back to the creation's own state when the answer comes (or fails).
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const linkId = useId();
  const busy = wanted !== null;
  const on = creation.shareUrl !== null;

  const toggle = async () => {
    setWanted(!on);
    setNote(null);
    try {
      if (on) {
        if (await unshareCreation(creation.id)) onChange(null);
        else setNote('The link could not be turned off. Please try again.');
      } else {
        const answer = await shareCreation(creation.id);
        if (answer.ok && answer.data) onChange(answer.data.shareUrl);
        else setNote('The link could not be made. Please try again.');
      }
    } catch {
      setNote('The server could not be reached. Please try again.');
    } finally {
      setWanted(null);
    }
  };

  const copy = async () => {
    if (!creation.shareUrl) return;
    try {
      await navigator.clipboard.writeText(new URL(creation.shareUrl, window.location.origin).href);
      setNote('Link copied.');
    } catch {
      setNote('Copying failed: select the link and copy it.');
    }
  };

  return (
    <div className="pp-share">
      <label className="pp-share__switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={wanted ?? on}
          checked={wanted ?? on}
          disabled={busy}
          onChange={() => void toggle()}
        />
        <Link2 size={16} aria-hidden="true" />
        Share link
      </label>
      {creation.shareUrl ? (
        <div className="pp-share__link">
          <input
            id={linkId}
            className="pp-input pp-share__url"
            readOnly
            aria-label="Share link"
            value={new URL(creation.shareUrl, window.location.origin).href}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="pp-button pp-button--secondary pp-button--sm" onClick={() => void copy()}>
            <Copy size={14} aria-hidden="true" />
            Copy
          </button>
        </div>
      ) : null}
      {note ? (
        <p className="pp-share__note" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
