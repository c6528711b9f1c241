import { Images, type LucideIcon, Palette } from 'lucide-react';
import type { ToolId } from '../../../contract/tools';

/** The words of each tool's workspace: the form's title, and the result panel's title and empty state. */
export type Workspace = {
  inputTitle: string;
  resultTitle: string;
  resultIcon: LucideIcon;
  emptyText: string;
};

const images = (inputTitle: string, resultTitle: string, emptyText: string): Workspace => ({
  inputTitle,
  resultTitle,
  resultIcon: Images,
  emptyText,
});

/** The drop zone's hint on every single-image tool (product-spec.md section 5). */
export const SINGLE_IMAGE_HINT = 'One PNG, JPG or WEBP image.';
/** Metamorphose and Background Swap: "hint says PNG, JPG and WEBP" and the 5 MB limit. */
export const UPLOAD_5MB_HINT = 'PNG, JPG and WEBP up to 5MB.';

export const WORKSPACES: Record<ToolId, Workspace> = {
  'text-to-pic': images(
    'Prompt and settings',
    'Your images',
    'Generated images appear here: click one to download it.',
  ),
  metamorphose: images('Reference face and prompt', 'Your images', 'The new portrait appears here, ready to download.'),
  colorizer: images(
    'Black-and-white photo',
    'Colorized photo',
    'The colorized version appears here, ready to download.',
  ),
  'background-remover': images(
    'Your image',
    'Cut-out',
    'The subject on a transparent background appears here as a PNG.',
  ),
  'creative-upscaler': images(
    'Your image',
    'Upscaled (2x)',
    'The enlarged, re-detailed image appears here, ready to download.',
  ),
  'fix-a-face': images('Portrait', 'Restored portrait', 'The restored portrait appears here, ready to download.'),
  'text-lab': images('Prompt and settings', 'Your images', 'Generated designs appear here, each ready to download.'),
  'background-swap': images(
    'Subject and new background',
    'Your images',
    'The subject in its new scene appears here, ready to download.',
  ),
  'image-upscaler': images('Your image', 'Upscaled image', 'The enlarged image appears here, ready to download.'),
  'image-analyzer': {
    inputTitle: 'Your image',
    resultTitle: 'Keywords and colors',
    resultIcon: Palette,
    emptyText: 'Keywords with their scores and the image’s palette appear here.',
  },
};
