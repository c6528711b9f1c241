// The words of a tool's workspace, and the drop zone hints several tools share. Each tool's own
// words are in its folder (its tool.ts).
import { Images, type LucideIcon, Palette } from 'lucide-react';

/** The form's title, and the result panel's title and empty state. */
export type Workspace = {
  inputTitle: string;
  resultTitle: string;
  resultIcon: LucideIcon;
  emptyText: string;
};

/** A workspace whose result is images. */
export const imagesWorkspace = (inputTitle: string, resultTitle: string, emptyText: string): Workspace => ({
  inputTitle,
  resultTitle,
  resultIcon: Images,
  emptyText,
});

/** A workspace whose result is an analysis (keywords and colours). */
export const analysisWorkspace = (inputTitle: string, resultTitle: string, emptyText: string): Workspace => ({
  inputTitle,
  resultTitle,
  resultIcon: Palette,
  emptyText,
});

/** The drop zone's hint on every single-image tool (product-spec.md section 5). */
export const SINGLE_IMAGE_HINT = 'One PNG, JPG or WEBP image.';
/** Metamorphose and Background Swap: "hint says PNG, JPG and WEBP" and the 5 MB limit. */
export const UPLOAD_5MB_HINT = 'PNG, JPG and WEBP up to 5MB.';
