// An upload as its model takes it when the job asks it smaller (decision 084: an Image Upscaler photo
// past its scale's input limit is made the size the scale turns into just the result). Runs in the
// worker, on the upload already conditioned (upright, untagged: source-photo.ts).
import type { ResultSize } from '../../../contract/result-size';
import type { ImageInput, OutputImage } from '../image-types';
import { resized } from './result-file';

/** `image` made `size` (Lanczos; the overflow of another shape cropped evenly), as a lossless PNG (its alpha kept). */
export async function resizedForModel(image: ImageInput, size: ResultSize): Promise<ImageInput> {
  const { data, info } = await (await resized(image.bytes, size))
    .png({ compressionLevel: 2 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, mime: 'image/png', width: info.width, height: info.height };
}

/** The upload as the result the finishing works from, for a job that runs no model. */
export const uploadAsOutput = (image: ImageInput): OutputImage => ({
  bytes: image.bytes,
  contentType: image.mime,
  width: image.width,
  height: image.height,
});
