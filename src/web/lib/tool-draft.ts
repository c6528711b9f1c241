// A tool page's draft, kept while the user buys tokens: the spec sends a user short of tokens to
// /tokens, and the image and settings they chose should be there when they come back. Kept in this
// tab's sessionStorage (gone with the tab); /tokens reads it to say which tool needed how many.
import type { ToolId } from '../../contract/tools';

/** The image as the page held it: a data URL, its file name and byte size. */
export type DraftImage = { dataUrl: string; name: string; size: number };

export type ToolDraft = {
  toolId: ToolId;
  /** Tokens the call would have cost. */
  cost: number;
  /** The image, unless it was too large to keep. */
  image?: DraftImage;
  /** True when an image was chosen but too large to keep (the user chooses it again). */
  imageDropped?: boolean;
  /** A batch's images kept for the page (lib/batch-draft.ts, in IndexedDB): how many. */
  batchImages?: number;
  /** The page's other settings (scale, prompt...), as the page names them. */
  settings?: Record<string, unknown>;
};

const KEY = 'pp-tool-draft';

/** Data URLs up to this many characters are kept (about 3 MB of image; sessionStorage holds ~5 MB). */
export const DRAFT_IMAGE_MAX_CHARS = 4_000_000;

export function saveToolDraft(draft: ToolDraft): void {
  const { image, ...rest } = draft;
  const keepImage = image && image.dataUrl.length <= DRAFT_IMAGE_MAX_CHARS;
  const full: ToolDraft = keepImage ? draft : { ...rest, imageDropped: image ? true : undefined };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(full));
  } catch {
    // Storage full or off: keep what fits without the image.
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ ...rest, imageDropped: image ? true : undefined }));
    } catch {
      /* nothing can be kept */
    }
  }
}

/** The draft, or null; `toolId` narrows it to one tool's. */
export function readToolDraft(toolId?: ToolId): ToolDraft | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const draft = JSON.parse(raw) as ToolDraft;
    return toolId === undefined || draft.toolId === toolId ? draft : null;
  } catch {
    return null;
  }
}

export function clearToolDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* storage off */
  }
}
