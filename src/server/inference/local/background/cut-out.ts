// The subject of a photo cut out with ISNet: the network's soft mask, stretched back to the image's
// own size, becomes its alpha channel. Shared by the Background Remover and Background Swap.
import sharp from 'sharp';
import { ProviderError } from '../../provider';
import { createGateCache, type ModelGate } from '../model-gate';
import { decodeRgb, fromRaw, type RawImage } from '../raw-image';
import { ISNET_RESOLUTION, type IsnetSession, type IsnetSize, loadIsnet, runIsnet, toIsnetInput } from './isnet-model';

const gates = createGateCache<IsnetSession>();

/** One gate per size: loaded on first use, kept, and run one image at a time. */
export function isnetGate(size: IsnetSize): ModelGate<IsnetSession> {
  // A network whose thread died is forgotten, so that the next job loads it afresh.
  return gates.get(size, (forget) => loadIsnet(size, forget));
}

/** Decodes an upload for the cut-out; an unreadable file is the user's problem, said plainly. */
export async function decodeUpload(bytes: Buffer): Promise<RawImage> {
  try {
    return await decodeRgb(bytes);
  } catch (error) {
    throw new ProviderError(`could not decode the image: ${String(error)}`, {
      userMessage: 'This image could not be read. Please upload a valid JPEG, PNG or WEBP file.',
      retryable: false,
    });
  }
}

/** The image's pixels as ISNet takes them: stretched to its square input (as the package does). */
export async function isnetPixels(image: RawImage): Promise<Buffer> {
  return fromRaw(image)
    .resize(ISNET_RESOLUTION, ISNET_RESOLUTION, { fit: 'fill', kernel: 'linear' })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/**
 * Below this share of opaque pixels there is nothing to cut out. Measured with ISNet medium: a flat
 * colour or a gradient 0.00%, a star field 0.14%, the test photos 6% (a rocket in the sky) to 76%.
 */
export const MIN_SUBJECT_SHARE = 0.002;

export const NO_SUBJECT_MESSAGE = 'No subject found in this image: try a photo with a clear subject in front.';

/** The share of the mask's pixels that are more subject than background. */
function subjectShare(mask: Buffer): number {
  let opaque = 0;
  for (const value of mask) if (value > 128) opaque += 1;
  return opaque / mask.length;
}

/**
 * The subject of an RGB image on a transparent background: RGBA at the image's size. An image
 * without a subject (a flat colour, a sky) fails with NO_SUBJECT_MESSAGE, so nobody pays for an
 * empty cut-out (the job is refunded).
 */
export async function cutOut(image: RawImage, size: IsnetSize, signal?: AbortSignal): Promise<RawImage> {
  if (image.channels !== 3) throw new Error(`cutOut needs RGB pixels, got ${image.channels} channels`);
  const input = toIsnetInput(await isnetPixels(image));
  signal?.throwIfAborted();
  const mask = await isnetGate(size).run((session) => runIsnet(session, input), signal);
  signal?.throwIfAborted();
  const share = subjectShare(mask);
  if (share < MIN_SUBJECT_SHARE) {
    throw new ProviderError(`no subject: ${(share * 100).toFixed(2)}% of the mask is opaque`, {
      userMessage: NO_SUBJECT_MESSAGE,
      retryable: false,
    });
  }
  // Linear resampling keeps the mask's soft edges soft at the image's size.
  const alpha = await sharp(mask, { raw: { width: ISNET_RESOLUTION, height: ISNET_RESOLUTION, channels: 1 } })
    .resize(image.width, image.height, { fit: 'fill', kernel: 'linear' })
    // sharp turns a one-channel input into sRGB on output unless told to keep a single band.
    .extractChannel(0)
    .raw()
    .toBuffer();
  const { data } = await fromRaw(image)
    .joinChannel(alpha, { raw: { width: image.width, height: image.height, channels: 1 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: image.width, height: image.height, channels: 4 };
}
