import { Eye, FileArchive, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Creation } from '../../../../contract/creations';
import { FormMessage } from '../../../components/FormMessage';
import { errorMessage } from '../../../lib/api';
import { batchDownloadUrl, deleteBatch } from '../../../lib/batches/batch-api';
import { formatTokens } from '../../../lib/format-cost';
import { zipLinkText } from '../parts/BatchGrid';
import type { WebTool } from '../web-tool';
import { formatWhen } from './CreationCard';
import { DeleteConfirmation } from './DeleteConfirmation';

/** How many pictures a batch's card shows. */
const MOSAIC_SIZE = 4;

/** "Batch · 12 images". */
export const batchLabel = (count: number) => `Batch · ${count} ${count === 1 ? 'image' : 'images'}`;

/** What the page says when a batch could not be deleted and the server gave no reason. */
const DELETE_FAILED = 'This batch could not be deleted. Please try again.';

/**
 * "Delete batch", confirmed in place as a creation's Delete is: all its images and results go. While
 * some still wait or run the server refuses (409), and its sentence is shown.
 */
export function DeleteBatch({ batchId, count, onDeleted }: { batchId: string; count: number; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const remove = async () => {
    setDeleting(true);
    setProblem(null);
    const answer = await deleteBatch(batchId).catch(() => null);
    setDeleting(false);
    if (answer?.ok) {
      onDeleted();
      return;
    }
    setConfirming(false);
    setProblem((answer && errorMessage(answer.data)) || DELETE_FAILED);
  };

  return (
    <div className="pp-creation__delete">
      <button
        type="button"
        className="pp-button pp-button--secondary pp-button--sm"
        aria-expanded={confirming}
        onClick={() => {
          setConfirming((open) => !open);
          setProblem(null);
        }}
      >
        <Trash2 size={14} aria-hidden="true" />
        Delete batch
      </button>
      {confirming ? (
        <DeleteConfirmation deleting={deleting} onDelete={() => void remove()} onKeep={() => setConfirming(false)}>
          Delete this batch? Its {count === 1 ? 'image is' : `${count} images are`} removed for good, with their
          results; your token history keeps the charges.
        </DeleteConfirmation>
      ) : null}
      <FormMessage message={problem ? { tone: 'error', text: problem } : null} testId="batch-delete-message" />
    </div>
  );
}

type Props = {
  batchId: string;
  /** Its jobs the list holds so far, in their batch order. */
  creations: Creation[];
  tool: WebTool;
  onOpen: () => void;
  onDeleted: () => void;
};

/** A batch in the grid: a few of its pictures, its tool, date and cost, its zip, open and delete. */
export function BatchCard({ batchId, creations, tool, onOpen, onDeleted }: Props) {
  const first = creations[0] as Creation;
  const done = creations.filter((creation) => creation.status === 'succeeded').length;
  const running = creations.some((creation) => creation.status === 'queued' || creation.status === 'running');
  const charged = creations.reduce((sum, creation) => sum + creation.charged, 0);
  const refunded = creations.reduce((sum, creation) => sum + creation.refunded, 0);
  const demo = creations.every((creation) => creation.demo);
  const pictures = creations
    .map((creation) => (creation.outputs[0] ?? creation.inputs[0])?.thumbnailUrl)
    .filter((url): url is string => Boolean(url))
    .slice(0, MOSAIC_SIZE);
  // The server counts the batch's images (all the user chose, sent or not); a batch split across
  // pages has only some of its jobs loaded here.
  const count = Math.max(creations.length, first.batch?.images ?? 0);
  const label = batchLabel(count);
  return (
    <li className="pp-card pp-creation pp-creation--batch" data-testid="creation" data-batch={batchId}>
      <button
        type="button"
        className="pp-creation__thumb pp-creation__mosaic"
        data-count={pictures.length}
        onClick={onOpen}
      >
        {pictures.map((url) => (
          <img key={url} src={url} alt="" loading="lazy" />
        ))}
        <span className="pp-visually-hidden">
          Open {tool.title} {label.toLowerCase()}
        </span>
        {running ? <span className="pp-creation__status">Running</span> : null}
      </button>
      <div className="pp-creation__body">
        <h2 className="pp-creation__tool">{tool.title}</h2>
        <p className="pp-creation__batch" data-testid="batch-label">
          {label}
        </p>
        <p className="pp-creation__meta">
          <time dateTime={first.createdAt}>{formatWhen(first.createdAt)}</time>
          {' · '}
          <span className="pp-tabular">
            {demo ? 'Free preview' : formatTokens(charged)}
            {refunded > 0 ? `, ${formatTokens(refunded)} back` : ''}
          </span>
        </p>
        <div className="pp-creation__actions">
          <button type="button" className="pp-button pp-button--secondary pp-button--sm" onClick={onOpen}>
            <Eye size={14} aria-hidden="true" />
            Open
          </button>
          {done > 0 ? (
            <a className="pp-button pp-button--secondary pp-button--sm" href={batchDownloadUrl(batchId)} download>
              <FileArchive size={14} aria-hidden="true" />
              {zipLinkText(done, running)}
            </a>
          ) : null}
        </div>
        <DeleteBatch batchId={batchId} count={count} onDeleted={onDeleted} />
      </div>
    </li>
  );
}
