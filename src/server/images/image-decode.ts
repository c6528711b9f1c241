// The full decode of every upload, made before a call is charged and whatever the moderation policy:
// image-input.ts checks what can be read without decoding (format, size, header, a complete ending),
// but a file can pass all that and still hold garbage, too few rows for its header, or a header
// that lies about its size. Such a file is the caller's 400 here rather than a decoder's 500 in the
// moderation step or a failed (refunded) job later. libvips decodes off the main thread.
import sharp from 'sharp';
import { INPUT_MESSAGES } from '../../contract/input-limits';
import { decodeSlots } from './decode-slots';
import { InputError } from './image-input';
import type { ImageInput } from './image-types';

/** The longest side of the decoded copy handed on to the explicit-content check (its model takes 224). */
const SAMPLE_SIDE = 448;

export const DAMAGED_IMAGE_REASON = INPUT_MESSAGES.imageDamaged;
export const SLOW_IMAGE_REASON = INPUT_MESSAGES.imageTooSlow;
/** A decode of an accepted upload (40 megapixels at most) takes about a second; past this it is refused. */
export const DECODE_TIME_LIMIT_SECONDS = 8;

/**
 * Decodes each image in full; throws InputError (`field: ...`) for one that cannot be read.
 * Answers each image's sample: its decoded pixels upright and reduced to at most SAMPLE_SIDE (never
 * enlarged), as a PNG, so that the explicit-content check does not decode the upload again.
 */
/** `owner`: whose request it is (the user id): one owner's decodes run one at a time (decode-slots.ts). */
export async function inspectImages(images: ImageInput[], field = 'image', owner = ''): Promise<ImageInput[]> {
  const samples: ImageInput[] = [];
  for (const image of images) samples.push(await decodeSlots.run(owner, () => decodeSample(image, field)));
  return samples;
}

async function decodeSample(image: ImageInput, field: string): Promise<ImageInput> {
  try {
    // failOn 'warning' (sharp's default), not 'error': libjpeg only warns about a JPEG cut short or
    // holding fewer rows than its header says, and fills the rest with grey.
    const decoder = sharp(image.bytes, { failOn: 'warning' });
    const header = await decoder.metadata();
    if (header.width !== image.width || header.height !== image.height) {
      throw new Error(`the decoder reads ${header.width}x${header.height}, the header ${image.width}x${image.height}`);
    }
    // Reducing it streams every row through the decoder without holding the full-size pixels
    // (a 40-megapixel upload would be 160 MB); shrink-on-load still reads all of the file's data.
    const { data, info } = await decoder
      .rotate()
      .resize(SAMPLE_SIDE, SAMPLE_SIDE, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .timeout({ seconds: DECODE_TIME_LIMIT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, mime: 'image/png', width: info.width, height: info.height };
  } catch (error) {
    const timedOut = error instanceof Error && /timeout/i.test(error.message);
    throw new InputError(field, timedOut ? SLOW_IMAGE_REASON : DAMAGED_IMAGE_REASON);
  }
}
