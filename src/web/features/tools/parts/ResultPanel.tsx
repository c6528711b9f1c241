import { Download, LoaderCircle, type LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import type { OutputFormat } from '../../../../contract/output-files';
import { FormMessage } from '../../../components/FormMessage';
import { PlaceholderPanel } from '../../../components/PlaceholderPanel';
import { useDownloadFormat } from '../download-formats';
import { useDownloads } from '../downloads';
import type { SendTarget } from '../send-targets';
import type { JobState } from '../use-tool-runner';
import { CompareView } from './CompareView';
import { FormatSelect } from './FormatSelect';
import { JobProgress } from './JobProgress';
import { SendToMenu } from './SendToMenu';

type Props = {
  title: string;
  job: JobState;
  /** The empty state: what will appear here. */
  icon: LucideIcon;
  emptyText: string;
  /** The result, shown when the job is done. */
  children?: ReactNode;
};

/**
 * The result panel's heading sits this high in the window or higher (a fraction of its height): the
 * result under it has the screen, and nothing moves. Lower (a phone, where the panel is under the
 * form and its button), the panel is brought up.
 */
const RESULT_IN_VIEW_BELOW = 0.25;

/**
 * A result that has just arrived, after the page waited for it (not one shown again on opening):
 * the focus moved to its heading (the form was disabled while the job ran, so the focus had fallen to
 * the page itself), and the panel brought into view when it starts low in the window or above it
 * (smoothly, unless the user asks for reduced motion). Again once its pictures have loaded: before,
 * the page may end too soon below it for the panel to come up.
 */
function showArrivedResult(panel: HTMLElement, heading: HTMLElement) {
  heading.focus({ preventScroll: true });
  const bringUp = () => {
    const { top } = panel.getBoundingClientRect();
    if (top >= 0 && top <= window.innerHeight * RESULT_IN_VIEW_BELOW) return;
    if (typeof panel.scrollIntoView !== 'function') return;
    const still =
      typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  };
  bringUp();
  const loading = [...panel.querySelectorAll('img')].filter((image) => !image.complete);
  if (loading.length === 0) return;
  const loaded = (image: HTMLImageElement) =>
    new Promise((resolve) => {
      image.addEventListener('load', resolve, { once: true });
      image.addEventListener('error', resolve, { once: true });
    });
  void Promise.all(loading.map(loaded)).then(bringUp);
}

/** The result side of a tool page: empty, the job's progress, or the result (which replaces any earlier one). */
export function ResultPanel({ title, job, icon, emptyText, children }: Props) {
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  /** The phase shown before this one: a result that follows a wait has just arrived. */
  const before = useRef(job.phase);

  useEffect(() => {
    const arrived = job.phase === 'done' && before.current === 'running';
    before.current = job.phase;
    if (arrived && panelRef.current && headingRef.current) showArrivedResult(panelRef.current, headingRef.current);
  }, [job.phase]);

  if (job.phase === 'idle') return <PlaceholderPanel icon={icon} title={title} text={emptyText} variant="output" />;
  const running = job.phase === 'running';
  return (
    <section
      ref={panelRef}
      className="pp-panel pp-panel--output pp-result-panel"
      aria-labelledby={titleId}
      aria-busy={running}
    >
      <h2 id={titleId} ref={headingRef} className="pp-panel__title" tabIndex={-1}>
        {title}
      </h2>
      {running ? (
        <div className="pp-panel__body" role="status">
          <LoaderCircle className="pp-spinner" size={32} aria-hidden="true" />
          <p className="pp-panel__text" data-testid="job-progress">
            <JobProgress job={job} />
          </p>
        </div>
      ) : (
        <div className="pp-result">{children}</div>
      )}
    </section>
  );
}

type ImageResultsProps = {
  images: string[];
  /** File name of image n (from 1). */
  fileName: (n: number) => string;
  /** Text for the alt attribute of image n. */
  alt: (n: number) => string;
  /** Text to Pic: a click on the image downloads it (else it opens full size). */
  clickToDownload?: boolean;
  /** The input of an image-to-image tool: each result is shown against it (slider and 1:1 zoom). */
  before?: string | null;
  /** The results are cut-outs, previewed on a chosen backdrop. */
  cutout?: boolean;
  /** The tools a result can be sent to, as their image. */
  sendTargets?: readonly SendTarget[];
  /** The formats a stored result downloads in, the one it is stored in first (download-formats.ts). */
  formats?: readonly OutputFormat[];
};

/**
 * Result images, each with a one-click Download in the format chosen beside it and, for a stored
 * result, a "Send to" menu (one row at a phone's width); a failed download says so under the grid.
 */
export function ImageResults({
  images,
  fileName,
  alt,
  clickToDownload = false,
  before = null,
  cutout = false,
  sendTargets = [],
  formats = [],
}: ImageResultsProps) {
  const downloads = useDownloads();
  if (images.length === 0) return <p className="pp-panel__text">The server sent no image back.</p>;
  return (
    <>
      <ul className="pp-image-grid" data-count={images.length}>
        {images.map((url, index) => (
          <ResultImage
            key={url}
            url={url}
            name={fileName(index + 1)}
            alt={alt(index + 1)}
            imageNumber={images.length > 1 ? index + 1 : null}
            formats={formats}
            downloads={downloads}
            clickToDownload={clickToDownload}
            before={before}
            cutout={cutout}
            sendTargets={sendTargets}
          />
        ))}
      </ul>
      <FormMessage message={downloads.error ? { tone: 'error', text: downloads.error } : null} />
    </>
  );
}

type ResultImageProps = Required<
  Pick<ImageResultsProps, 'clickToDownload' | 'before' | 'cutout' | 'sendTargets' | 'formats'>
> & {
  url: string;
  /** The spec's file name of this image. */
  name: string;
  alt: string;
  /** Image n of several (names its controls per image); null for a single result. */
  imageNumber: number | null;
  downloads: ReturnType<typeof useDownloads>;
};

/** One result with its actions; its format choice decides what both the image's click and Download save. */
function ResultImage({
  url,
  name,
  alt,
  imageNumber,
  formats,
  downloads: { download, pending },
  clickToDownload,
  before,
  cutout,
  sendTargets,
}: ResultImageProps) {
  const chosen = useDownloadFormat(url, name, formats);
  const save = () => void download(chosen.url, chosen.fileName);
  return (
    <li className="pp-image-grid__item">
      {before ? (
        <CompareView before={before} after={url} alt={alt} cutout={cutout} />
      ) : clickToDownload ? (
        <button
          type="button"
          className="pp-image-grid__frame"
          aria-label={`Download ${chosen.fileName}`}
          onClick={save}
        >
          <img src={url} alt={alt} />
        </button>
      ) : (
        <a className="pp-image-grid__frame" href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={alt} />
          <span className="pp-visually-hidden"> (opens full size in a new tab)</span>
        </a>
      )}
      <div className="pp-image-grid__actions">
        <div className="pp-format-download">
          <button
            type="button"
            className="pp-button pp-button--secondary pp-button--sm"
            disabled={pending === chosen.url}
            aria-label={imageNumber ? `Download image ${imageNumber}` : 'Download'}
            onClick={save}
          >
            <Download size={16} aria-hidden="true" />
            <span className="pp-format-download__text">Download</span>
          </button>
          {chosen.format && chosen.offered.length > 1 ? (
            <FormatSelect
              formats={chosen.offered}
              value={chosen.format}
              onChange={chosen.setFormat}
              label={imageNumber ? `Format of image ${imageNumber}` : 'Format'}
            />
          ) : null}
        </div>
        <SendToMenu url={url} targets={sendTargets} imageNumber={imageNumber} />
      </div>
    </li>
  );
}
