// "Refine" on a cut-out (issue 58 item 1, decision 082): opens the tool's refine editor, a chunk of
// its own fetched on the first click (WebTool.loadRefineEditor), and says which version was saved.
// The same button on the tool page, in My Creations' viewer and on a batch's tile.
import { SquarePen } from 'lucide-react';
import { type ComponentType, useState } from 'react';
import type { Creation } from '../../../../contract/creations';
import type { RefineEditorProps, WebTool } from '../web-tool';
import './refine-action.css';

type Props = {
  tool: Pick<WebTool, 'loadRefineEditor'>;
  jobId: string;
  /** The original photo the cut-out was made from. */
  photoUrl: string;
  /** The new version, saved (the page shows it). */
  onSaved?: (version: Creation) => void;
  /** Names the button when there are several on a page ("Refine IMG_0412.jpg"). */
  label?: string;
};

/** "Version 2 of 3": where a version stands among its original's. */
export const versionText = (creation: Pick<Creation, 'id' | 'versions'>) =>
  creation.versions.length > 1
    ? `Version ${creation.versions.indexOf(creation.id) + 1} of ${creation.versions.length}`
    : null;

export function RefineAction({ tool, jobId, photoUrl, onSaved, label }: Props) {
  const [Editor, setEditor] = useState<ComponentType<RefineEditorProps> | null>(null);
  const [opening, setOpening] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = tool.loadRefineEditor;
  if (!load) return null;

  const open = () => {
    setOpening(true);
    setProblem(null);
    load().then(
      (component) => {
        setOpening(false);
        // A component in state is set through a function, or React would call it.
        setEditor(() => component);
      },
      () => {
        setOpening(false);
        setProblem('The editor could not be loaded. Check your connection and try again.');
      },
    );
  };

  return (
    <div className="pp-refine-action">
      <button
        type="button"
        className="pp-button pp-button--secondary pp-button--sm"
        aria-label={label}
        disabled={opening}
        onClick={open}
      >
        <SquarePen size={16} aria-hidden="true" />
        <span>{opening ? 'Opening…' : 'Refine'}</span>
      </button>
      <p className="pp-refine-action__status" role="status">
        {problem ?? (saved ? `Saved as ${saved}.` : '')}
      </p>
      {Editor ? (
        <Editor
          jobId={jobId}
          photoUrl={photoUrl}
          onClose={() => setEditor(null)}
          onSaved={(version) => {
            setEditor(null);
            setSaved(versionText(version)?.toLowerCase() ?? 'a new version');
            onSaved?.(version);
          }}
        />
      ) : null}
    </div>
  );
}
