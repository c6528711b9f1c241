import { Download, Eye, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Creation } from '../../../../contract/creations';
import { FormMessage } from '../../../components/FormMessage';
import { deleteCreation } from '../../../lib/creations/creations-api';
import { sendToPath } from '../../../lib/creations/send-to';
import { formatTokens } from '../../../lib/format-cost';
import { Link } from '../../../lib/router';
import { useDownloads } from '../downloads';
import type { WebTool } from '../web-tool';
import { DeleteConfirmation } from './DeleteConfirmation';
import { ShareToggle } from './ShareToggle';

const STATUS_TEXT = { queued: 'Queued', running: 'Working on it', failed: 'Failed, tokens given back' } as const;

export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Run again": the tool with the same settings (and, for image tools, the same input image). */
export function runAgainLink(tool: WebTool, creation: Creation) {
  const input = creation.inputs[0];
  return {
    to: (input && sendToPath(tool.route, input.url)) ?? tool.route,
    state: { runAgain: creation.settings },
  };
}

type Props = {
  creation: Creation;
  tool: WebTool;
  onOpen: () => void;
  onDeleted: () => void;
  onShared: (shareUrl: string | null) => void;
};

/** One creation in the grid: its picture, tool, date and cost, and what can be done with it. */
export function CreationCard({ creation, tool, onOpen, onDeleted, onShared }: Props) {
  const { download, pending, error } = useDownloads();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const preview = creation.outputs[0] ?? creation.inputs[0];
  const done = creation.status === 'succeeded';
  const again = runAgainLink(tool, creation);

  const remove = async () => {
    setDeleting(true);
    setDeleteError(null);
    const ok = await deleteCreation(creation.id).catch(() => false);
    setDeleting(false);
    if (ok) onDeleted();
    else setDeleteError('This creation could not be deleted. Please try again.');
  };

  return (
    <li className="pp-card pp-creation" data-testid="creation">
      <button type="button" className="pp-creation__thumb" onClick={onOpen} disabled={!done}>
        {preview ? <img src={preview.thumbnailUrl} alt="" loading="lazy" /> : null}
        <span className="pp-visually-hidden">Open {tool.title} result</span>
        {done ? null : (
          <span className="pp-creation__status">{STATUS_TEXT[creation.status as keyof typeof STATUS_TEXT]}</span>
        )}
      </button>
      <div className="pp-creation__body">
        <h2 className="pp-creation__tool">{tool.title}</h2>
        <p className="pp-creation__meta">
          <time dateTime={creation.createdAt}>{formatWhen(creation.createdAt)}</time>
          {' · '}
          <span className="pp-tabular">
            {creation.demo ? 'Free preview' : formatTokens(creation.charged)}
            {creation.refunded > 0 ? `, ${formatTokens(creation.refunded)} back` : ''}
          </span>
        </p>
        <div className="pp-creation__actions">
          {done ? (
            <button type="button" className="pp-button pp-button--secondary pp-button--sm" onClick={onOpen}>
              <Eye size={14} aria-hidden="true" />
              Open
            </button>
          ) : null}
          {tool.result.kind === 'images'
            ? creation.outputs.map((image, index) => {
                const name = tool.result.kind === 'images' ? tool.result.fileName(index + 1) : '';
                return (
                  <button
                    key={image.id}
                    type="button"
                    className="pp-button pp-button--secondary pp-button--sm"
                    disabled={pending === image.url}
                    aria-label={`Download ${name}`}
                    onClick={() => void download(image.url, name)}
                  >
                    <Download size={14} aria-hidden="true" />
                    {creation.outputs.length > 1 ? `${index + 1}` : 'Download'}
                  </button>
                );
              })
            : null}
          <Link className="pp-button pp-button--secondary pp-button--sm" to={again.to} state={again.state}>
            <RotateCcw size={14} aria-hidden="true" />
            Run again
          </Link>
          <button
            type="button"
            className="pp-button pp-button--secondary pp-button--sm"
            aria-expanded={confirming}
            onClick={() => setConfirming((open) => !open)}
          >
            <Trash2 size={14} aria-hidden="true" />
            Delete
          </button>
        </div>
        {confirming ? (
          <DeleteConfirmation deleting={deleting} onDelete={() => void remove()} onKeep={() => setConfirming(false)}>
            Delete this creation? Its images are removed for good; your token history keeps the charge.
          </DeleteConfirmation>
        ) : null}
        {done ? <ShareToggle creation={creation} onChange={onShared} /> : null}
        <FormMessage
          message={error || deleteError ? { tone: 'error', text: (deleteError ?? error) as string } : null}
        />
      </div>
    </li>
  );
}
