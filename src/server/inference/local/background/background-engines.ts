// The Background Remover and Background Swap on the local engine. Both cut the subject out with
// ISNet (cut-out.ts). The swap has no generator to paint a new background, so it draws one from
// the description's words (scenery.ts) and marks every image "DEMO background".
import sharp from 'sharp';
import { withCleanEdges } from '../../../images/finishing/edge-colours';
import type { ImageInput, OutputImage } from '../../../images/image-types';
import type { LocalEngine } from '../local-engine';
import { fromRaw } from '../raw-image';
import { cutOut, decodeUpload } from './cut-out';
import type { IsnetSize } from './isnet-model';
import { sceneryBackground } from './scenery';

/** Swap outputs are fitted to this on their long side, the size of the hosted model's outputs. */
export const SWAP_LONG_SIDE = 1024;

/** The Background Remover's engine: the upload's subject on a transparent PNG. */
export function createBackgroundRemoverEngine(size: IsnetSize): LocalEngine<{ image: ImageInput }> {
  return async ({ image }, signal) => {
    const subject = await cutOut(await decodeUpload(image.bytes), size, signal);
    const png: OutputImage = { bytes: await fromRaw(subject).png().toBuffer(), contentType: 'image/png' };
    return { kind: 'images', images: [png] };
  };
}

/** The Background Swap's engine: `count` images of the upload's subject on backgrounds drawn from `prompt`. */
export type BackgroundSwapParams = { image: ImageInput; prompt: string; count: number };

export function createBackgroundSwapEngine(size: IsnetSize): LocalEngine<BackgroundSwapParams> {
  return async ({ image, prompt, count }, signal) => {
    if (!Number.isInteger(count) || count < 1 || count > 4) {
      throw new Error(`the background swap needs 1 to 4 outputs, got ${count}`);
    }
    const cut = await cutOut(await decodeUpload(image.bytes), size, signal);
    // Clean edges (decision 080): no halo of the old background's colour on the new one.
    const cleaned = await withCleanEdges(cut);
    const subject = {
      ...cut,
      data: Buffer.from(cleaned.data.buffer, cleaned.data.byteOffset, cleaned.data.byteLength),
    };
    const scale = SWAP_LONG_SIDE / Math.max(subject.width, subject.height);
    const width = Math.max(1, Math.round(subject.width * scale));
    const height = Math.max(1, Math.round(subject.height * scale));
    // Raw pixels between the steps: no PNG encode and decode on the way to the one webp encode.
    const raw = { width, height, channels: 4 } as const;
    const fitted = await fromRaw(subject).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
    const mark = demoMark(width, height);
    const images: OutputImage[] = [];
    for (let variant = 0; variant < count; variant++) {
      signal.throwIfAborted();
      const composed = await sharp(sceneryBackground(prompt, variant, width, height))
        .composite([
          { input: fitted, raw },
          { input: mark, gravity: 'southeast' },
        ])
        .raw()
        .toBuffer();
      // The background is opaque, so the result needs no alpha channel.
      const bytes = await sharp(composed, { raw }).removeAlpha().webp({ quality: 90 }).toBuffer();
      images.push({ bytes, contentType: 'image/webp' });
    }
    return { kind: 'images', images };
  };
}

/** A small "DEMO background" badge: the subject is real, the background is not AI. Shrunk to fit thin images. */
function demoMark(width: number, height: number): Buffer {
  const preferred = Math.max(12, Math.round(Math.min(width, height) / 40));
  // The badge with its margin is 12.5 x 2.8 font sizes.
  const font = Math.max(1, Math.min(preferred, Math.floor(width / 12.5), Math.floor(height / 2.8)));
  const w = Math.round(font * 11.5);
  const h = Math.round(font * 1.8);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w + font}" height="${h + font}">
  <rect width="${w}" height="${h}" rx="${h / 4}" fill="#fff" fill-opacity="0.8"/>
  <text x="${w / 2}" y="${h * 0.68}" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${font}" fill="#111">DEMO background</text>
</svg>`);
}
