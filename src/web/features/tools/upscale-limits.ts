// The largest input of the tools that enlarge an image (their output stays within ~16 megapixels).
// The server refuses larger images before charging; the pages say so first, in the hint and as
// soon as a too-large image is chosen.
import { UPSCALE_MAX_INPUT, upscaleMaxSide } from '../../../contract/tools';
import type { ImageSize } from './parts/ImageDropZone';
import { SINGLE_IMAGE_HINT } from './workspace';

export type UpscaleScale = keyof typeof UPSCALE_MAX_INPUT;

/** The drop zone's hint naming the largest input at each of `scales`. */
export const upscaleHint = (scales: UpscaleScale[]) =>
  `${SINGLE_IMAGE_HINT} Largest input: ${scales
    .map((scale) => `${UPSCALE_MAX_INPUT[scale].label} px${scales.length > 1 ? ` for ${scale}x` : ''}`)
    .join(', ')}.`;

/** The inline problem with a chosen image too large for `scale`, or null. */
export function upscaleProblem(size: ImageSize | null, scale: UpscaleScale, suggestion: string): string | null {
  const limit = UPSCALE_MAX_INPUT[scale];
  if (!size) return null;
  const shown = `This image is ${size.width} x ${size.height} px:`;
  if (size.width * size.height > limit.pixels) {
    return `${shown} the largest input for ${scale}x is ${limit.label} px. ${suggestion}`;
  }
  const maxSide = upscaleMaxSide(scale);
  if (Math.max(size.width, size.height) > maxSide) {
    return `${shown} its longest side can be at most ${maxSide} px for ${scale}x. ${suggestion}`;
  }
  return null;
}
