// The one decode the Image Analyzer does: the upload upright at the size the vision models see
// (DETECT_MAX_SIDE; JPEG and WEBP decode straight to it), a small RGBA copy of that for the
// statistics (palette and properties: 256 px on the long side holds enough pixels for them), and
// the full image's upright size (read from its header).
import sharp from 'sharp';
import { DETECT_MAX_SIDE } from '../faces/human-runtime';
import { decodeUpright, fromRaw, type RawImage } from '../raw-image';

export type AnalysisPixels = RawImage & { channels: 4; uprightWidth: number; uprightHeight: number };

const ANALYSIS_SIDE = 256;
/** Pixels whose alpha is below this count as transparent (colorthief's own default). */
export const OPAQUE_ALPHA = 125;

/** `image` for the vision models, `pixels` for the statistics. */
export async function decodeForAnalysis(bytes: Buffer): Promise<{ image: RawImage; pixels: AnalysisPixels }> {
  const [header, image] = await Promise.all([sharp(bytes).metadata(), decodeUpright(bytes, DETECT_MAX_SIDE)]);
  const { data, info } = await fromRaw(image)
    .resize(ANALYSIS_SIDE, ANALYSIS_SIDE, { fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels: AnalysisPixels = {
    data,
    width: info.width,
    height: info.height,
    channels: 4,
    uprightWidth: header.autoOrient.width,
    uprightHeight: header.autoOrient.height,
  };
  return { image, pixels };
}

/** The statistics' pixels alone (tests and the benchmark). */
export async function loadAnalysisPixels(bytes: Buffer): Promise<AnalysisPixels> {
  return (await decodeForAnalysis(bytes)).pixels;
}
