// The spec's download names (product-spec.md section 7), per tool: the n-th image of a result
// (1-based). One list for the tools' own pages (their `result.fileName`) and the pages outside
// them (a shared creation, My Creations' viewer).
import type { ToolId } from './tools';

export const IMAGE_DOWNLOAD_NAMES = {
  'text-to-pic': (n: number) => `generated-image-${n}.webp`,
  'image-upscaler': () => 'upscaled-image.webp',
  metamorphose: (n: number) => `metamorphose-${n}.webp`,
  'background-remover': () => 'background-removed.png',
  colorizer: () => 'colorized-image.webp',
  'creative-upscaler': () => 'creative-upscaled.webp',
  'fix-a-face': () => 'fixed-face.webp',
  'text-lab': (n: number) => `textlab-image-${n}.webp`,
  'background-swap': (n: number) => `background-swap-${n}.webp`,
} satisfies Record<Exclude<ToolId, 'image-analyzer'>, (n: number) => string>;

/** The file name the n-th image of `tool`'s result downloads as; null for a tool with no image (an analysis). */
export const downloadName = (tool: ToolId, n: number): string | null =>
  tool in IMAGE_DOWNLOAD_NAMES ? IMAGE_DOWNLOAD_NAMES[tool as keyof typeof IMAGE_DOWNLOAD_NAMES](n) : null;
