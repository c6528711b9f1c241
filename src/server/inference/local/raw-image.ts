// Decoded pixels passed between local engines (sharp's raw output), so that one engine can hand
// its result to the next without encoding in between.
import sharp from 'sharp';

export type RawImage = { data: Buffer; width: number; height: number; channels: 3 | 4 };

/** Decodes any input sharp reads into RGB (EXIF rotation applied). */
export async function decodeRgb(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** The raw image as a sharp pipeline, to resize, composite or encode. */
export function fromRaw(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}
