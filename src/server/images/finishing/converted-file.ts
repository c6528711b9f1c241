// A stored result in another format, for the page's "Format" choice beside the download
// (GET /api/files/:id?format=, issue 41): the numbers, colour profile and metadata kept as stored; a
// file stored without a profile (made before issue 54) is tagged sRGB as results now are.
// Made within bounds and kept by stored-conversions.ts (issue 53).
import sharp from 'sharp';
import { DEFAULT_OUTPUT_QUALITY, type OutputFormat } from '../../../contract/output-files';
import { exifResolution, jpegWithJfifDensity } from './embedded-metadata';
import { taggedSrgb } from './result-file';

/** A transparent image asked for as JPEG, which cannot keep it. */
export class TransparentAsJpegError extends Error {
  override name = 'TransparentAsJpegError';
}

/** `timeoutSeconds`: sharp stops the work past it (stored-conversions.ts bounds every conversion). */
export async function convertedFile(
  bytes: Buffer,
  format: OutputFormat,
  { timeoutSeconds }: { timeoutSeconds: number },
): Promise<Buffer> {
  const limit = { seconds: timeoutSeconds };
  const meta = await sharp(bytes).metadata();
  if (format === 'jpeg') {
    if (meta.hasAlpha && !(await sharp(bytes).timeout(limit).stats()).isOpaque) throw new TransparentAsJpegError();
  }
  // ignoreIcc with keepMetadata: the numbers are not converted, the profile goes along as it is.
  // keepMetadata always writes EXIF (libvips makes one when the file has none).
  const kept = sharp(bytes, { ignoreIcc: true }).keepMetadata().timeout(limit);
  // The DPI goes along (a print size's, decision 084): libvips reads none from a WebP's or AVIF's
  // EXIF and would write its default (25.4) into the new file; a JPEG gets JFIF's too, as results do.
  const density = meta.density ?? (meta.exif ? exifResolution(meta.exif)?.x : undefined);
  const tagged = meta.icc ? kept : taggedSrgb(kept, { writesExif: true });
  const pipeline = density ? tagged.withDensity(density) : tagged;
  if (format === 'png') return pipeline.png({ compressionLevel: 6 }).toBuffer();
  if (format === 'jpeg') {
    const jpeg = await pipeline
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: DEFAULT_OUTPUT_QUALITY.jpeg, mozjpeg: true })
      .toBuffer();
    return density ? (jpegWithJfifDensity(jpeg, density) ?? jpeg) : jpeg;
  }
  if (format === 'webp') return pipeline.webp({ quality: DEFAULT_OUTPUT_QUALITY.webp, effort: 2 }).toBuffer();
  return pipeline.avif({ quality: DEFAULT_OUTPUT_QUALITY.avif, effort: 2 }).toBuffer();
}
