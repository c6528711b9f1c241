import { useEffect, useRef, useState } from 'react';
import type { ToolId } from '../../../../contract/tools';
import { type BatchDraftFile, takeBatchDraft } from '../../../lib/batch-draft';

/**
 * What the page does with a kept batch: restore it, drop it (a newer draft of one image for this
 * tool stands), or leave it for later (a batch in the URL shows that batch instead).
 */
export type RestoreBatch = 'restore' | 'drop' | 'leave';

/** The draft's files, each a File with the name the batch gave it (a pasted image's "Pasted image"). */
const named = (files: readonly BatchDraftFile[]) =>
  files.map(({ file, name }) =>
    file.name === name ? file : new File([file], name, { type: file.type, lastModified: file.lastModified }),
  );

/**
 * The batch this tool's page left when it sent the user to /tokens (lib/batch-draft.ts): taken once,
 * as the page opens, and handed to `onFiles` in order. Nothing happens without one.
 */
export function useRestoredBatch(toolId: ToolId, mode: RestoreBatch, onFiles: (files: File[]) => void): void {
  // As the page opened: what it shows later (a batch put in the URL by its run) changes nothing.
  const [initialMode] = useState(mode);
  const taken = useRef(false);
  const mounted = useRef(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    mounted.current = true;
    // Once per page: StrictMode's second run of this effect must not look again (the draft is gone).
    if (!taken.current && initialMode !== 'leave') {
      taken.current = true;
      void takeBatchDraft(toolId).then((files) => {
        if (files && initialMode === 'restore' && mounted.current) latest.current(named(files));
      });
    }
    return () => {
      mounted.current = false;
    };
  }, [toolId, initialMode]);
}
