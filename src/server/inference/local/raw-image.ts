// Decoded pixels passed between local engines (sharp's raw output), so that one engine can hand
// its result to the next without encoding in between.
import sharp from 'sharp';

export type RawImage = { data: Buffer; width: number; height: number; channels: 3 | 4 };

/** Decodes any input sharp reads into RGB (EXIF rotation applied). */
export async function decodeRgb(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/**
 * Decodes once, upright (EXIF rotation applied), reduced to `maxSide` on its long side if larger
 * (JPEG and WEBP then decode at the smaller size): RGBA if the image has transparency, else RGB.
 */
export async function decodeUpright(bytes: Buffer, maxSide?: number): Promise<RawImage> {
  let pipeline = sharp(bytes).rotate();
  if (maxSide) pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) throw new Error(`decoded ${info.channels} channels, not RGB(A)`);
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** RGB and, if the image has one, its alpha channel (one byte a pixel), apart. */
export async function splitAlpha(image: RawImage): Promise<{ rgb: RawImage; alpha?: Buffer }> {
  if (image.channels === 3) return { rgb: image };
  const [rgb, alpha] = await Promise.all([
    fromRaw(image).removeAlpha().raw().toBuffer(),
    fromRaw(image).extractChannel(3).raw().toBuffer(),
  ]);
  return { rgb: { data: rgb, width: image.width, height: image.height, channels: 3 }, alpha };
}

/** The raw image as a sharp pipeline, to resize, composite or encode. */
export function fromRaw(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

/** The image (RGB) resized with Lanczos to exactly width x height (as it is, if it already is). */
export async function resizedTo(image: RawImage, width: number, height: number): Promise<RawImage> {
  if (image.width === width && image.height === height) return image;
  const { data, info } = await fromRaw(image)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
