// A cut-out's matte (issue 58 item 1, decision 082): kept beside a refinable tool's result so that a
// person can refine it by hand later, and a cut-out made again from the photo and an edited matte.
// All sharp (libvips' threads): no pixel loop on the thread that serves HTTP.
import sharp from 'sharp';
import type { ImageInput, OutputImage } from '../image-types';
import { conditionUpload, type SourcePhoto } from './source-photo';

/**
 * The matte of a model's cut-out, white (subject) on black, as a one-channel PNG: its alpha, or its
 * only channel when the model answered a mask.
 */
export async function matteOf(cutOut: Buffer): Promise<OutputImage> {
  const image = sharp(cutOut);
  const { hasAlpha, channels } = await image.metadata();
  const single = image.extractChannel(hasAlpha ? ((channels - 1) as 1 | 3) : 0);
  const { data, info } = await single
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, contentType: 'image/png', width: info.width, height: info.height };
}

/**
 * An edited mask (PNG or WebP) as the matte of a photo of `size`: white where the subject stays,
 * black or transparent where it goes (its grey times its alpha: a canvas's white strokes on
 * transparency and an opaque grey image alike), one channel, stretched to the photo when smaller.
 */
export async function maskAsMatte(mask: Buffer, size: { width: number; height: number }): Promise<OutputImage> {
  // sharp runs a pipeline's steps in its own order: the grey is made first, then resized on its own.
  const grey = await sharp(mask)
    .flatten({ background: '#000000' })
    .toColourspace('b-w')
    .extractChannel(0)
    .raw()
    .toBuffer({
      resolveWithObject: true,
    });
  const bytes = await sharp(grey.data, { raw: { width: grey.info.width, height: grey.info.height, channels: 1 } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .toColourspace('b-w')
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { bytes, contentType: 'image/png', ...size };
}

/**
 * The photo cut out with `matte` (both upright, the same size): a PNG with alpha, as a model's
 * cut-out is, and what the result keeps of the photo (profile, metadata), for its finishing.
 */
export async function cutOutWithMatte(
  photo: ImageInput,
  matte: OutputImage,
): Promise<{ cutOut: OutputImage; source: SourcePhoto }> {
  // The upload as a model is handed it (upright, untagged, 8-bit RGB), so the cut-out's numbers are the model's.
  const { image, source } = await conditionUpload(photo);
  const rgb = await sharp(image.bytes).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const alpha = await sharp(matte.bytes)
    .extractChannel(0)
    .resize(rgb.info.width, rgb.info.height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(rgb.data, { raw: { width: rgb.info.width, height: rgb.info.height, channels: 3 } })
    .joinChannel(alpha.data, { raw: { width: alpha.info.width, height: alpha.info.height, channels: 1 } })
    .png({ compressionLevel: 2 })
    .toBuffer({ resolveWithObject: true });
  return { cutOut: { bytes: data, contentType: 'image/png', width: info.width, height: info.height }, source };
}
