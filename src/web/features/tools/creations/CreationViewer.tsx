import { Download, X } from 'lucide-react';
import { useId } from 'react';
import type { Creation } from '../../../../contract/creations';
import { FormMessage } from '../../../components/FormMessage';
import { useDownloads } from '../downloads';
import { AnalysisResult } from '../parts/AnalysisResult';
import { CompareView } from '../parts/CompareView';
import type { WebTool } from '../web-tool';
import { ShareToggle } from './ShareToggle';
import { useDialogFocus } from './use-dialog-focus';

type Props = {
  creation: Creation;
  tool: WebTool;
  onClose: () => void;
  /** Its share link turned on or off here: the grid shows the same. */
  onShared: (shareUrl: string | null) => void;
};

/**
 * One creation full size, over the page: compared with its input for image-to-image tools, with a
 * Download per image (the spec's name for its tool) and its share link. Escape closes.
 */
export function CreationViewer({ creation, tool, onClose, onShared }: Props) {
  const { download, pending, error } = useDownloads();
  const titleId = useId();
  const closeRef = useDialogFocus(onClose);

  const before = tool.result.kind === 'images' && tool.result.compare ? (creation.inputs[0]?.url ?? null) : null;
  const cutout = tool.result.kind === 'images' && tool.result.compare === 'cutout';
  /** One image: its Download sits with the share link; several: a Download under each. */
  const single = creation.outputs.length === 1 ? creation.outputs[0] : undefined;
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
              name={tool.result.fileName(1)}
              label="Download"
              busy={pending === single.url}
              onClick={(name) => void download(single.url, name)}
            />
          ) : null}
          <ShareToggle creation={creation} onChange={onShared} />
        </div>
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
                    name={tool.result.fileName(index + 1)}
                    label={`Download image ${index + 1}`}
                    busy={pending === image.url}
                    onClick={(name) => void download(image.url, name)}
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

type DownloadProps = { name: string; label: string; busy: boolean; onClick: (name: string) => void };

function DownloadButton({ name, label, busy, onClick }: DownloadProps) {
  return (
    <button
      type="button"
      className="pp-button pp-button--primary pp-button--sm pp-viewer__download"
      disabled={busy}
      aria-label={`Download ${name}`}
      onClick={() => onClick(name)}
    >
      <Download size={14} aria-hidden="true" />
      {label}
    </button>
  );
}
