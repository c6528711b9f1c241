import './batch-grid.css';
import { CircleAlert, CircleCheck, CircleSlash, Clock, Download, ImageOff, LoaderCircle } from 'lucide-react';
import type { ReactNode, SyntheticEvent } from 'react';
import type { BatchItem } from '../../../../contract/batches';
import { useDownloads } from '../downloads';
import type { WebTool } from '../web-tool';
import { waitingText } from './progress';
import { RefineAction } from './RefineAction';

/**
 * A batch's images as a grid of square tiles, each with its name and its state as a small badge
 * over the picture: the images being put together on a tool page, the batch running there, and a
 * batch opened from My Creations. Shared here (parts/) since both pages show it.
 */

/** The badge's colour and icon: waiting its turn, busy, done, failed, or a note (not sent, refused). */
export type BadgeTone = 'waiting' | 'busy' | 'done' | 'failed' | 'muted';

export type Badge = { tone: BadgeTone; text: string };

const BADGE_ICONS = {
  waiting: Clock,
  busy: LoaderCircle,
  done: CircleCheck,
  failed: CircleAlert,
  muted: CircleSlash,
} as const;

/** `steady`: its tiles change state (a running batch), so each keeps the room of its longest state. */
export function BatchGrid({
  label,
  steady = false,
  children,
}: {
  label: string;
  steady?: boolean;
  children: ReactNode;
}) {
  return (
    <ul className="pp-batch-grid" aria-label={label} data-steady={steady}>
      {children}
    </ul>
  );
}

type TileProps = {
  name: string;
  /** The picture (a preview, a thumbnail), or null for a file that has none. */
  image: string | null;
  imageAlt: string;
  /** The full-size picture, opened in a new tab from the thumbnail. */
  href?: string | null;
  badge: Badge | null;
  /** A control over the picture's corner (× to remove it). */
  corner?: ReactNode;
  /** Under the name: its size, its error, its keywords, its download. */
  children?: ReactNode;
  onImageLoad?: (event: SyntheticEvent<HTMLImageElement>) => void;
  onImageError?: () => void;
};

/** One image of a batch. Its frame and lines keep their size as its state changes: nothing moves. */
export function BatchTile({
  name,
  image,
  imageAlt,
  href,
  badge,
  corner,
  children,
  onImageLoad,
  onImageError,
}: TileProps) {
  const picture = image ? (
    <img src={image} alt={imageAlt} loading="lazy" onLoad={onImageLoad} onError={onImageError} />
  ) : (
    <ImageOff className="pp-batch-tile__none" size={28} aria-hidden="true" />
  );
  const Icon = badge ? BADGE_ICONS[badge.tone] : null;
  return (
    <li className="pp-batch-tile" data-state={badge?.tone} data-testid="batch-tile">
      <div className="pp-batch-tile__frame">
        {href && image ? (
          <a className="pp-batch-tile__open" href={href} target="_blank" rel="noreferrer">
            {picture}
            <span className="pp-visually-hidden"> (opens full size in a new tab)</span>
          </a>
        ) : (
          picture
        )}
        {badge && Icon ? (
          <span className="pp-batch-tile__badge" data-tone={badge.tone} data-testid="batch-badge">
            <Icon size={14} aria-hidden="true" />
            {badge.text}
          </span>
        ) : null}
        {corner}
      </div>
      <p className="pp-batch-tile__name" title={name}>
        {name}
      </p>
      <div className="pp-batch-tile__detail">{children}</div>
    </li>
  );
}

/** The tokens an image's failure gave back, said on its tile. */
export const REFUNDED_TEXT = 'Refunded';

/** A refused image's note: the server took nothing for it. */
export const NOT_CHARGED_TEXT = 'Not charged';

/**
 * The batch's zip link: while images still wait, run or are being sent it says what it gives now
 * (the zip's README.txt lists the rest); once all have ended, all there is.
 */
export const zipLinkText = (done: number, stillGoing: boolean) =>
  stillGoing ? `Download the ${done.toLocaleString('en-US')} finished` : 'Download all (.zip)';

/** An image the server refused when it was sent (nothing charged, no job): failed, with its sentence. */
export function RefusedTile({ name, image = null, error }: { name: string; image?: string | null; error: string }) {
  return (
    <BatchTile name={name} image={image} imageAlt={name} badge={{ tone: 'failed', text: 'Failed' }}>
      <p className="pp-batch-tile__error" title={error}>
        {error}
      </p>
      <p className="pp-batch-tile__note">{NOT_CHARGED_TEXT}</p>
    </BatchTile>
  );
}

/** How many of an analysis's keywords a tile shows. */
const TILE_KEYWORDS = 5;

type ItemProps = {
  item: BatchItem;
  tool: Pick<WebTool, 'title' | 'failureMessage' | 'result' | 'loadRefineEditor'>;
  /** The page's own preview of its input, while it holds the file (no thumbnail to fetch). */
  localImage?: string | null;
};

/** One image of a batch as the server tells it: waiting (its place), running, done (its result), failed. */
export function BatchItemTile({ item, tool, localImage = null }: ItemProps) {
  const { download, pending, error } = useDownloads();
  const name = item.batch?.name ?? `Image ${(item.batch?.item ?? 0) + 1}`;
  const input = localImage ?? item.inputs[0]?.thumbnailUrl ?? null;
  const output = item.outputs[0];
  const analysis = tool.result.kind === 'analysis';

  if (item.status === 'succeeded') {
    const keywords = (item.keywords ?? []).slice(0, TILE_KEYWORDS);
    const resultName = item.resultName;
    return (
      <BatchTile
        name={name}
        image={analysis ? input : (output?.thumbnailUrl ?? input)}
        imageAlt={analysis ? name : `${tool.title} result of ${name}`}
        href={analysis ? null : output?.url}
        badge={{ tone: 'done', text: 'Done' }}
      >
        {analysis ? (
          keywords.length > 0 ? (
            <ul className="pp-batch-tile__keywords" aria-label={`Keywords of ${name}`}>
              {keywords.map((keyword) => (
                <li key={keyword.keyword}>{keyword.keyword}</li>
              ))}
            </ul>
          ) : (
            <p className="pp-batch-tile__note">No keywords found.</p>
          )
        ) : output && resultName ? (
          <>
            <button
              type="button"
              className="pp-button pp-button--secondary pp-button--sm pp-batch-tile__download"
              disabled={pending === output.url}
              aria-label={`Download ${resultName}`}
              onClick={() => void download(output.url, resultName)}
            >
              <Download size={14} aria-hidden="true" />
              Download
            </button>
            {item.inputs[0] ? (
              // A cut-out refined by hand (issue 58): its new version is in My Creations.
              <RefineAction tool={tool} jobId={item.id} photoUrl={item.inputs[0].url} label={`Refine ${resultName}`} />
            ) : null}
            {error ? <p className="pp-batch-tile__error">{error}</p> : null}
          </>
        ) : null}
      </BatchTile>
    );
  }
  if (item.status === 'failed') {
    return (
      <BatchTile name={name} image={input} imageAlt={name} badge={{ tone: 'failed', text: 'Failed' }}>
        <p className="pp-batch-tile__error">{item.error ?? tool.failureMessage}</p>
        {item.refunded > 0 ? <p className="pp-batch-tile__note">{REFUNDED_TEXT}</p> : null}
      </BatchTile>
    );
  }
  return (
    <BatchTile
      name={name}
      image={input}
      imageAlt={name}
      badge={
        item.status === 'running'
          ? { tone: 'busy', text: 'Running' }
          : { tone: 'waiting', text: waitingText(item.queuePosition) }
      }
    />
  );
}

/** The badge of an image the page has not sent yet, or is sending. */
export const SENDING_BADGES = {
  toSend: { tone: 'waiting', text: 'To send' },
  sending: { tone: 'busy', text: 'Sending' },
} as const satisfies Record<string, Badge>;
