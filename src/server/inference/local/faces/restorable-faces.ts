// Which faces the local Fix a Face can restore, decided before the charge (the tool's localPrecheck)
// and again by the engine: none found, or only faces too small for the network to add real detail,
// is a refusal that says so and what to try, not a paid run that ends like a Lanczos resize.
import type { ImageInput } from '../../../images/image-types';
import { ProviderError } from '../../provider';
import type { LocalPrecheck } from '../local-engine';
import { decodeRgb, type RawImage } from '../raw-image';
import { detectFaces, type FaceBox } from './detect-faces';

/**
 * The smallest face (the detector's box height, in the upload's pixels) the engine restores.
 * Measured with bench/face-size.ts (decision 041, in docs/decisions/): below
 * it, on a blurred face the network adds no detail a Lanczos resize lacks (the eyes stay blobs),
 * and in small photos the detector's boxes outgrow the real faces (a 40 px face boxed at 75 px).
 */
export const MIN_FACE_HEIGHT = 96;

export const NO_FACE_MESSAGE =
  "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.";

export const faceTooSmallMessage = (height: number) =>
  `The face in this photo is too small for Fix a Face (about ${height} px). Try a photo where the face is at least ${MIN_FACE_HEIGHT} pixels tall, or use Image Upscaler.`;

/**
 * The faces in `image` (most confident first) when the largest is at least `minHeight` tall;
 * otherwise rejects with a ProviderError whose userMessage says why and what to try.
 */
export async function restorableFaces(
  image: RawImage,
  signal?: AbortSignal,
  minHeight = MIN_FACE_HEIGHT,
): Promise<FaceBox[]> {
  const faces = await detectFaces(image, signal);
  if (faces.length === 0) throw new ProviderError('no face detected', { userMessage: NO_FACE_MESSAGE });
  const largest = Math.max(...faces.map((face) => face.height));
  if (largest < minHeight) {
    throw new ProviderError(`largest face ${largest} px, under ${minHeight} px`, {
      userMessage: faceTooSmallMessage(largest),
    });
  }
  return faces;
}

/** Fix a Face's check before the charge: the same faces the engine will look for. */
export const fixAFacePrecheck: LocalPrecheck<{ image: ImageInput }> = async ({ image }, signal) => {
  await restorableFaces(await decodeRgb(image.bytes), signal);
};
