// The spec's download names (product-spec.md section 7), per tool: the n-th image of a result
// (1-based). The tools' pages name their downloads in their web modules (`result.fileName`); pages
// outside the tools (a shared creation) read them here, and a test keeps the two the same.
import type { ToolId } from './tools';

const NAMES: Record<ToolId, ((n: number) => string) | null> = {
  'text-to-pic': (n) => `generated-image-${n}.webp`,
  'image-upscaler': () => 'upscaled-image.webp',
  metamorphose: (n) => `metamorphose-${n}.webp`,
  'background-remover': () => 'background-removed.png',
  colorizer: () => 'colorized-image.webp',
  'creative-upscaler': () => 'creative-upscaled.webp',
  'fix-a-face': () => 'fixed-face.webp',
  'text-lab': (n) => `textlab-image-${n}.webp`,
  'background-swap': (n) => `background-swap-${n}.webp`,
  // An analysis has no image to download.
  'image-analyzer': null,
};

/** The file name the n-th image of `tool`'s result downloads as; null for a tool with no image. */
export const downloadName = (tool: ToolId, n: number): string | null => NAMES[tool]?.(n) ?? null;
