import { Images, ImageUp, type LucideIcon, Palette, TextCursorInput } from 'lucide-react';
import type { ToolId } from '../../../contract/tools';

type PanelCopy = { icon: LucideIcon; title: string; text: string };

/** What each tool's workspace is made of: the input side and the result side. */
export type Workspace = { input: PanelCopy; result: PanelCopy };

const imageInput = (title: string, text: string): PanelCopy => ({ icon: ImageUp, title, text });
const promptInput = (title: string, text: string): PanelCopy => ({ icon: TextCursorInput, title, text });
const imageResult = (title: string, text: string): PanelCopy => ({ icon: Images, title, text });

const SINGLE_IMAGE = 'One PNG, JPG or WEBP image goes here.';

export const WORKSPACES: Record<ToolId, Workspace> = {
  'text-to-pic': {
    input: promptInput(
      'Prompt and settings',
      'Your description, the size, the number of images (1 to 4) and the quality.',
    ),
    result: imageResult('Your images', 'Generated images appear here, each ready to download.'),
  },
  metamorphose: {
    input: imageInput('Reference face and prompt', 'A reference photo of a face and a description of the new scene.'),
    result: imageResult('Your images', 'The new portrait appears here, ready to download.'),
  },
  colorizer: {
    input: imageInput('Black-and-white photo', SINGLE_IMAGE),
    result: imageResult('Colorized photo', 'The colorized version appears here, ready to download.'),
  },
  'background-remover': {
    input: imageInput('Your image', SINGLE_IMAGE),
    result: imageResult('Cut-out', 'The subject on a transparent background appears here as a PNG.'),
  },
  'creative-upscaler': {
    input: imageInput('Your image', SINGLE_IMAGE),
    result: imageResult('Upscaled (2x)', 'The enlarged, re-detailed image appears here, ready to download.'),
  },
  'fix-a-face': {
    input: imageInput('Portrait', SINGLE_IMAGE),
    result: imageResult('Restored portrait', 'The restored portrait appears here, ready to download.'),
  },
  'text-lab': {
    input: promptInput(
      'Prompt and settings',
      'A description of the design and its lettering, the size and Text Assist.',
    ),
    result: imageResult('Your images', 'Generated designs appear here, each ready to download.'),
  },
  'background-swap': {
    input: imageInput('Subject and new background', 'An image of the subject and a description of its new background.'),
    result: imageResult('Your images', 'The subject in its new scene appears here, ready to download.'),
  },
  'image-upscaler': {
    input: imageInput('Your image', `${SINGLE_IMAGE} Enlarge it 2x, 4x or 6x.`),
    result: imageResult('Upscaled image', 'The enlarged image appears here, ready to download.'),
  },
  'image-analyzer': {
    input: imageInput('Your image', SINGLE_IMAGE),
    result: {
      icon: Palette,
      title: 'Keywords and colours',
      text: 'Keywords with their scores and the image’s palette appear here.',
    },
  },
};
