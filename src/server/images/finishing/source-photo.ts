// What a tool's upload tells its result (issue 41, decision 063). Every provider (the local engines,
// Replicate's models, the demo) is handed the photo's numbers as stored, upright and untagged, in
// 8-bit RGB: so a model never sees a profile it would ignore or an orientation it would not apply,
// and its result's numbers mean what the upload's meant. The result is then tagged with the upload's
// profile (result-file.ts): an Adobe RGB or Display P3 photo comes back in its own colours.
// CMYK (a print file) and greyscale profiles are converted to sRGB instead; their results, and those
// of untagged uploads (sRGB, as a browser reads them), are tagged sRGB (issue 54).
import sharp from 'sharp';
import type { ImageInput } from '../image-types';
import { jpegWithIcc, pngWithMetadata, webpWithMetadata } from './embedded-metadata';

/** What the result keeps of its upload. */
export type SourcePhoto = {
  /**
   * The upload's RGB profile, attached to the result unchanged. None: the upload was untagged or
   * converted to sRGB (CMYK, a grey profile), and its result is tagged sRGB.
   */
  icc?: Buffer;
  /** The raw EXIF block ("Exif\0\0" + TIFF). */
  exif?: Buffer;
  xmp?: string;
  /** Pixels per inch, when the upload says. */
  density?: number;
  hasAlpha: boolean;
};

const isRgbProfile = (icc: Buffer) => icc.length > 20 && icc.toString('latin1', 16, 20) === 'RGB ';

type Metadata = Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;

const needsConversion = (meta: Metadata) =>
  meta.space === 'cmyk' || (meta.icc !== undefined && !isRgbProfile(meta.icc));

function sourcePhotoOf(meta: Metadata): SourcePhoto {
  const convert = needsConversion(meta);
  return {
    ...(meta.icc && !convert ? { icc: meta.icc } : {}),
    ...(meta.exif ? { exif: meta.exif } : {}),
    ...(meta.xmpAsString ? { xmp: meta.xmpAsString } : {}),
    ...(meta.density ? { density: meta.density } : {}),
    hasAlpha: meta.hasAlpha,
  };
}

/** What the result keeps of `image` (its header only: nothing decoded). */
export async function readSourcePhoto(image: ImageInput): Promise<SourcePhoto> {
  return sourcePhotoOf(await sharp(image.bytes).metadata());
}

/**
 * The upload as the providers take it (numbers unchanged, upright, untagged, 8-bit RGB: a lossless
 * PNG when any of that needed a change, else the upload itself) and what its result keeps of it.
 */
export async function conditionUpload(image: ImageInput): Promise<{ image: ImageInput; source: SourcePhoto }> {
  const meta = await sharp(image.bytes).metadata();
  const source = sourcePhotoOf(meta);
  const convert = needsConversion(meta);
  const sixteenBit = meta.depth === 'ushort';
  const turned = (meta.orientation ?? 1) > 1;
  if (!meta.icc && !convert && !sixteenBit && !turned) return { image, source };
  if (!convert && !sixteenBit && !turned) {
    // Only the profile to take off: done on the file's bytes, so a JPEG stays the same JPEG.
    const untagged = withoutProfile(image);
    if (untagged) return { image: { ...image, bytes: untagged }, source };
  }
  // ignoreIcc keeps the numbers; a conversion (CMYK, grey profile) goes through sharp's default to sRGB.
  const { data, info } = await sharp(image.bytes, { ignoreIcc: !convert })
    .autoOrient()
    .toColourspace('srgb')
    .png({ compressionLevel: 2 })
    .toBuffer({ resolveWithObject: true });
  return { image: { bytes: data, mime: 'image/png', width: info.width, height: info.height }, source };
}

/** The upload's bytes without its profile (and, for PNG and WebP, its other metadata chunks); null: re-encode. */
function withoutProfile(image: ImageInput): Buffer | null {
  try {
    if (image.mime === 'image/jpeg') return jpegWithIcc(image.bytes, undefined);
    if (image.mime === 'image/png') return pngWithMetadata(image.bytes, {});
    return webpWithMetadata(image.bytes, {});
  } catch {
    return null;
  }
}
