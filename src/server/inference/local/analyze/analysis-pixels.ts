// The one decode the Image Analyzer does: a small RGBA copy (palette and properties are statistics,
// and 256 px on the long side holds enough pixels for them) plus the full image's upright size.
import sharp from 'sharp';
import type { RawImage } from '../raw-image';

export type AnalysisPixels = RawImage & { channels: 4; uprightWidth: number; uprightHeight: number };

const ANALYSIS_SIDE = 256;
/** Pixels whose alpha is below this count as transparent (colorthief's own default). */
export const OPAQUE_ALPHA = 125;

export async function loadAnalysisPixels(bytes: Buffer): Promise<AnalysisPixels> {
  const upright = (await sharp(bytes).metadata()).autoOrient;
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(ANALYSIS_SIDE, ANALYSIS_SIDE, { fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    channels: 4,
    uprightWidth: upright.width,
    uprightHeight: upright.height,
  };
}
