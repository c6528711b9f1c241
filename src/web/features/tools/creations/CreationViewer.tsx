import { Download, X } from 'lucide-react';
import { useId } from 'react';
import type { Creation } from '../../../../contract/creations';
import type { OutputFormat } from '../../../../contract/output-files';
import { FormMessage } from '../../../components/FormMessage';
import { resultFormats, useDownloadFormat } from '../download-formats';
import { useDownloads } from '../downloads';
import { AnalysisResult } from '../parts/AnalysisResult';
import { CompareView } from '../parts/CompareView';
import { FormatSelect } from '../parts/FormatSelect';
import { RefineAction, versionText } from '../parts/RefineAction';
import type { WebTool } from '../web-tool';
import { ShareToggle } from './ShareToggle';
import { useDialogFocus } from './use-dialog-focus';

type Props = {
  creation: Creation;
  tool: WebTool;
  onClose: () => void;
  /** Its share link turned on or off here: the grid shows the same. */
  onShared: (shareUrl: string | null) => void;
  /** A cut-out refined here (issue 58): its new version. */
  onRefined?: (version: Creation) => void;
  /** Another version of this result, chosen in the list of versions. */
  onOpenVersion?: (jobId: string) => void;
};

/**
 * One creation full size, over the page: compared with its input for image-to-image tools, with a
 * Download per image (the spec's name for its tool) and its share link; a cut-out's Refine and its
 * versions (issue 58). Escape closes.
 */
export function CreationViewer({ creation, tool, onClose, onShared, onRefined, onOpenVersion }: Props) {
  const { download, pending, error } = useDownloads();
  const titleId = useId();
  const closeRef = useDialogFocus(onClose);

  const before = tool.result.kind === 'images' && tool.result.compare ? (creation.inputs[0]?.url ?? null) : null;
  const cutout = tool.result.kind === 'images' && tool.result.compare === 'cutout';
  /** One image: its Download sits with the share link; several: a Download under each. */
  const single = creation.outputs.length === 1 ? creation.outputs[0] : undefined;
  const formats = resultFormats(tool, creation.settings);
  return (
    <div className="pp-viewer" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="pp-viewer__panel pp-card">
        <div className="pp-viewer__head">
          <h2 id={titleId} className="pp-card__title">
            {tool.title}
          </h2>
          <button ref={closeRef} type="button" className="pp-icon-button" aria-label="Close" onClick={onClose}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        {/* What can be done with it, above the picture: in view without scrolling the panel. */}
        <div className="pp-viewer__bar">
          {single && tool.result.kind === 'images' ? (
            <DownloadButton
              url={single.url}
              name={tool.result.fileName(1)}
              label="Download"
              formats={formats}
              pending={pending}
              onDownload={(url, name) => void download(url, name)}
            />
          ) : null}
          <ShareToggle creation={creation} onChange={onShared} />
          {creation.status === 'succeeded' && creation.inputs[0] && onRefined ? (
            <RefineAction tool={tool} jobId={creation.id} photoUrl={creation.inputs[0].url} onSaved={onRefined} />
          ) : null}
        </div>
        {creation.versions.length > 1 && onOpenVersion ? (
          <nav className="pp-viewer__versions" aria-label="Versions">
            <span>{versionText(creation)}:</span>
            <ol>
              {creation.versions.map((id, index) => (
                <li key={id}>
                  <button
                    type="button"
                    className="pp-link-button"
                    aria-current={id === creation.id ? 'true' : undefined}
                    disabled={id === creation.id}
                    onClick={() => onOpenVersion(id)}
                  >
                    {index === 0 ? 'Original' : `Version ${index + 1}`}
                  </button>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <FormMessage message={error ? { tone: 'error', text: error } : null} />
        {tool.result.kind === 'analysis' ? (
          <AnalysisResult analysis={{ keywords: creation.keywords ?? [], colors: creation.colors ?? [] }} />
        ) : (
          <ul className="pp-viewer__images">
            {creation.outputs.map((image, index) => (
              <li key={image.id}>
                {before ? (
                  <CompareView
                    before={before}
                    after={image.url}
                    alt={`${tool.title} result ${index + 1}`}
                    cutout={cutout}
                  />
                ) : (
                  <img className="pp-viewer__image" src={image.url} alt={`${tool.title} result ${index + 1}`} />
                )}
                {!single && tool.result.kind === 'images' ? (
                  <DownloadButton
                    url={image.url}
                    name={tool.result.fileName(index + 1)}
                    label={`Download image ${index + 1}`}
                    formats={formats}
                    formatLabel={`Format of image ${index + 1}`}
                    pending={pending}
                    onDownload={(url, name) => void download(url, name)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

type DownloadProps = {
  url: string;
  name: string;
  label: string;
  /** The formats it can be saved in, the stored one first (download-formats.ts). */
  formats: readonly OutputFormat[];
  formatLabel?: string;
  /** The address being downloaded, if any. */
  pending: string | null;
  onDownload: (url: string, name: string) => void;
};

/** A Download with its Format beside it, as on the tool pages. */
function DownloadButton({ url, name, label, formats, formatLabel = 'Format', pending, onDownload }: DownloadProps) {
  const chosen = useDownloadFormat(url, name, formats);
  return (
    <div className="pp-format-download pp-viewer__download">
      <button
        type="button"
        className="pp-button pp-button--primary pp-button--sm"
        disabled={pending === chosen.url}
        aria-label={`Download ${chosen.fileName}`}
        onClick={() => onDownload(chosen.url, chosen.fileName)}
      >
        <Download size={14} aria-hidden="true" />
        {label}
      </button>
      {chosen.format && chosen.offered.length > 1 ? (
        <FormatSelect formats={chosen.offered} value={chosen.format} onChange={chosen.setFormat} label={formatLabel} />
      ) : null}
    </div>
  );
}
