import { FileArchive, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { BATCH_MESSAGES, type Batch } from '../../../../contract/batches';
import { errorMessage } from '../../../lib/api';
import { getBatch } from '../../../lib/batches/batch-api';
import { BatchGrid, BatchItemTile, RefusedTile, zipLinkText } from '../parts/BatchGrid';
import { JOB_POLL_MS } from '../tool-api';
import type { WebTool } from '../web-tool';
import { DeleteBatch } from './BatchCard';
import { useDialogFocus } from './use-dialog-focus';

type Props = {
  batchId: string;
  tool: WebTool;
  onClose: () => void;
  onDeleted: () => void;
};

type Loaded = { phase: 'loading' } | { phase: 'error'; text: string } | { phase: 'ready'; batch: Batch };

/**
 * A batch over the page, as its tool page shows it when it is done (read only): every image with its
 * state and result, the zip of all, and Delete batch. Read again while some still wait or run. Escape
 * closes.
 */
export function BatchViewer({ batchId, tool, onClose, onDeleted }: Props) {
  const titleId = useId();
  const closeRef = useDialogFocus(onClose);
  const [loaded, setLoaded] = useState<Loaded>({ phase: 'loading' });

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const answer = await getBatch(batchId).catch(() => null);
      if (stopped) return;
      if (!answer?.ok || !answer.data) {
        const text =
          answer?.status === 404
            ? (errorMessage(answer.data) ?? BATCH_MESSAGES.notFound)
            : 'This batch could not be loaded. Please try again.';
        setLoaded((current) =>
          current.phase === 'ready' && answer?.status !== 404 ? current : { phase: 'error', text },
        );
        return;
      }
      const batch = answer.data;
      setLoaded({ phase: 'ready', batch });
      if (batch.counts.waiting + batch.counts.running > 0) timer = setTimeout(read, JOB_POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [batchId]);

  const batch = loaded.phase === 'ready' ? loaded.batch : null;
  // Its images in their order: those sent (their jobs) and those the server refused.
  const tiles = batch
    ? [
        ...batch.items.map((item) => ({
          at: item.batch?.item ?? 0,
          tile: <BatchItemTile key={item.id} item={item} tool={tool} />,
        })),
        ...batch.refused.map((image) => ({
          at: image.item,
          tile: <RefusedTile key={`refused-${image.item}`} name={image.name} error={image.error} />,
        })),
      ].sort((a, b) => a.at - b.at)
    : [];
  const stillGoing = batch ? batch.counts.waiting + batch.counts.running : 0;
  const failed = batch ? batch.counts.failed + batch.refused.length : 0;
  /** Never sent: the page that started the batch stopped before them (the zip's README names them). */
  const notSent = batch ? batch.size - batch.items.length - batch.refused.length : 0;
  return (
    <div className="pp-viewer" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="pp-viewer__panel pp-card">
        <div className="pp-viewer__head">
          <h2 id={titleId} className="pp-card__title">
            {batch
              ? `${tool.title}: batch of ${batch.size} ${batch.size === 1 ? 'image' : 'images'}`
              : `${tool.title} batch`}
          </h2>
          <button ref={closeRef} type="button" className="pp-icon-button" aria-label="Close" onClick={onClose}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        {loaded.phase === 'loading' ? (
          <p className="pp-creations__note" role="status">
            Loading the batch…
          </p>
        ) : loaded.phase === 'error' ? (
          <p className="pp-creations__note" role="alert">
            {loaded.text}
          </p>
        ) : batch ? (
          <>
            <div className="pp-viewer__bar pp-batch-viewer__bar">
              <p className="pp-creations__note pp-tabular" data-testid="batch-viewer-counts">
                {batch.counts.done} done
                {failed > 0 ? ` · ${failed} failed` : ''}
                {stillGoing > 0 ? ` · ${stillGoing} still running` : ''}
                {notSent > 0 ? ` · ${notSent} not sent` : ''}
              </p>
              {batch.counts.done > 0 ? (
                <a className="pp-button pp-button--primary pp-button--sm" href={batch.downloadUrl} download>
                  <FileArchive size={14} aria-hidden="true" />
                  {zipLinkText(batch.counts.done, stillGoing > 0)}
                </a>
              ) : null}
              <DeleteBatch batchId={batch.id} count={batch.size} onDeleted={onDeleted} />
            </div>
            <BatchGrid label="Images of the batch" steady>
              {tiles.map(({ tile }) => tile)}
            </BatchGrid>
          </>
        ) : null}
      </div>
    </div>
  );
}
