import { FileArchive, Plus, RotateCcw } from 'lucide-react';
import { useId } from 'react';
import type { Batch, BatchItem } from '../../../../contract/batches';
import { BATCH_PARAM } from '../../../../contract/batches';
import { toolById } from '../../../../contract/tools';
import { formatTokens } from '../../../lib/format-cost';
import { Link } from '../../../lib/router';
import { type Badge, BatchGrid, BatchItemTile, BatchTile, RefusedTile, zipLinkText } from '../parts/BatchGrid';
import { timeLeftText } from '../parts/progress';
import type { WebTool } from '../web-tool';
import { imagesText } from './cost';
import type { BatchRun, LocalItem } from './use-batch-run';

/** "3 images were not sent.", "1 image was not sent." */
export const notSentText = (count: number) => `${imagesText(count)} ${count === 1 ? 'was' : 'were'} not sent.`;

/**
 * Where a batch stands: its images by state, from the server's items and refusals and this page's
 * own sends. An image the server refused is failed (with its sentence) wherever the batch is opened.
 */
export function batchCounts(batch: Batch, local: LocalItem[] | null) {
  const byItem = new Map<number, BatchItem>();
  for (const item of batch.items) if (item.batch) byItem.set(item.batch.item, item);
  const refused = new Map(batch.refused.map((image) => [image.item, image]));
  let done = 0;
  let failed = 0;
  let notSent = 0;
  let sent = 0;
  for (let index = 0; index < batch.size; index++) {
    const item = byItem.get(index);
    const mine = local?.[index];
    if (item) {
      sent++;
      if (item.status === 'succeeded') done++;
      else if (item.status === 'failed') failed++;
    } else if (mine?.state === 'refused' || refused.has(index)) {
      failed++;
    } else if (mine?.state === 'sent') {
      sent++;
    } else if (!mine) {
      notSent++;
    }
  }
  return { byItem, refused, done, failed, notSent, sent, total: batch.size - notSent };
}

const LOCAL_BADGES: Record<Exclude<LocalItem['state'], 'refused'>, Badge> = {
  'to-send': { tone: 'waiting', text: 'To send' },
  sending: { tone: 'busy', text: 'Sending' },
  sent: { tone: 'waiting', text: 'Waiting' },
};

type Props = {
  tool: WebTool;
  run: BatchRun;
  /** Drops the batch from the page (and the URL): an empty page for a new one. */
  onNew: () => void;
};

/**
 * A batch running or done: a bar and counts over a grid where each image shows its state (its
 * place in the line, running, done with its result, failed and refunded), the time left, the zip
 * of all results, and a new batch. Opened from the URL it shows what the server has.
 */
export function BatchProgress({ tool, run, onNew }: Props) {
  const titleId = useId();
  const countsId = useId();
  const { batch, local, gone, loadError, sendingNow } = run;

  if (gone) {
    return (
      <section className="pp-panel pp-batch__gone" aria-labelledby={titleId} data-testid="batch-gone">
        <h2 id={titleId} className="pp-panel__title">
          This batch is gone
        </h2>
        <p className="pp-panel__text">{gone}</p>
        <button type="button" className="pp-button pp-button--primary" onClick={onNew}>
          <Plus size={16} aria-hidden="true" />
          Start a new batch
        </button>
      </section>
    );
  }
  if (!batch) {
    return (
      <section className="pp-panel pp-batch__gone" aria-labelledby={titleId} aria-busy={!loadError}>
        <h2 id={titleId} className="pp-panel__title">
          Your batch
        </h2>
        {loadError ? (
          <p className="pp-panel__text" role="alert">
            {loadError}{' '}
            <button type="button" className="pp-link-button" onClick={run.retry}>
              Try again
            </button>
          </p>
        ) : (
          <p className="pp-panel__text" role="status">
            Loading your batch…
          </p>
        )}
      </section>
    );
  }
  if (batch.tool !== tool.id) {
    // A batch of another tool in this tool's address: its own page shows it.
    const owner = toolById(batch.tool);
    return (
      <section className="pp-panel pp-batch__gone" aria-labelledby={titleId}>
        <h2 id={titleId} className="pp-panel__title">
          This batch belongs to the {owner.title}
        </h2>
        <Link
          className="pp-button pp-button--primary"
          to={`${owner.route}?${BATCH_PARAM}=${encodeURIComponent(batch.id)}`}
        >
          Open it in the {owner.title}
        </Link>
      </section>
    );
  }

  const { byItem, refused, done, failed, notSent, sent, total } = batchCounts(batch, local);
  const ended = done + failed;
  const waiting = batch.counts.waiting + batch.counts.running > 0;
  const indices = Array.from({ length: batch.size }, (_, index) => index);
  return (
    <div className="pp-batch">
      <section className="pp-panel pp-batch__images" aria-labelledby={titleId} data-testid="batch-progress">
        <div className="pp-batch__head">
          <h2 id={titleId} className="pp-panel__title">
            Your batch <span className="pp-batch__count pp-tabular">{imagesText(batch.size)}</span>
          </h2>
        </div>
        <BatchGrid label="Images of the batch" steady>
          {indices.map((index) => {
            const item = byItem.get(index);
            const mine = local?.[index];
            if (item) return <BatchItemTile key={index} item={item} tool={tool} localImage={mine?.url ?? null} />;
            const refusal = refused.get(index);
            if (mine?.state === 'refused' || (refusal && !mine)) {
              const error = mine?.error ?? refusal?.error ?? tool.failureMessage;
              return (
                <RefusedTile key={index} name={mine?.name ?? refusal?.name ?? ''} image={mine?.url} error={error} />
              );
            }
            if (!mine) return null;
            return (
              <BatchTile
                key={index}
                name={mine.name}
                image={mine.url}
                imageAlt={mine.name}
                badge={LOCAL_BADGES[mine.state]}
              />
            );
          })}
        </BatchGrid>
      </section>
      <section className="pp-panel pp-batch__side" aria-label="Batch progress">
        <div className="pp-batch__summary">
          <p id={countsId} className="pp-batch__counts pp-tabular" role="status" data-testid="batch-counts">
            {done} of {total} done{failed > 0 ? ` · ${failed} failed` : ''}
          </p>
          <progress className="pp-batch__bar" max={Math.max(total, 1)} value={ended} aria-labelledby={countsId} />
          {sendingNow ? (
            <p className="pp-batch__line" data-testid="batch-sending">
              Sending {sent} of {batch.size}… Keep this page open until all are sent.
            </p>
          ) : null}
          {waiting && batch.secondsLeft !== null ? (
            <p className="pp-batch__line pp-tabular" data-testid="batch-time-left">
              {timeLeftText(batch.secondsLeft)}
            </p>
          ) : null}
          {!sendingNow && notSent > 0 ? (
            <p className="pp-batch__line" data-testid="batch-not-sent">
              {notSentText(notSent)} Images are sent from the page that started the batch and are not kept in the
              browser.
            </p>
          ) : null}
          {batch.charged > 0 ? (
            <p className="pp-batch__line pp-tabular" data-testid="batch-charged">
              {formatTokens(batch.charged)} taken
              {batch.refunded > 0 ? ` · ${formatTokens(batch.refunded)} refunded` : ''}
            </p>
          ) : null}
        </div>
        <div className="pp-batch__actions">
          {done > 0 ? (
            <a
              className="pp-button pp-button--primary pp-button--lg pp-batch__zip"
              href={batch.downloadUrl}
              download
              data-testid="batch-zip"
            >
              <FileArchive size={18} aria-hidden="true" />
              {zipLinkText(done, waiting || sendingNow)}
            </a>
          ) : null}
          {sendingNow ? null : (
            <button type="button" className="pp-button pp-button--secondary" onClick={onNew}>
              <RotateCcw size={16} aria-hidden="true" />
              New batch
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
