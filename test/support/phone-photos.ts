// Photos of the sizes phones make (issue 52): megapixels and megabytes, not thumbnails. A fixture
// photo resized up with a tile of random noise laid over it, which JPEG and PNG cannot squeeze, so
// the file stays as large as a camera's. Each takes a second or so of sharp's time: make each once.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/images');
const NOISE_SIDE = 256;
const noise = randomBytes(NOISE_SIDE * NOISE_SIDE * 3);

function noisy(source: string, width: number, height: number) {
  return sharp(path.join(FIXTURES, source))
    .resize(width, height, { fit: 'fill' })
    .composite([
      { input: noise, raw: { width: NOISE_SIDE, height: NOISE_SIDE, channels: 3 }, tile: true, blend: 'soft-light' },
    ]);
}

/** A camera's JPEG: 4000 x 3000 (12 MP) is 6-7 MB, 2048 x 1536 (3 MP) about 2 MB. */
export const phoneJpeg = (options: { width: number; height: number; source?: string }) =>
  noisy(options.source ?? 'chelsea.png', options.width, options.height)
    .jpeg({ quality: 90 })
    .toBuffer();

/** A screenshot-like PNG of about 5 MB (1500 x 1125). */
export const phonePng = (options: { width: number; height: number; source?: string } = { width: 1500, height: 1125 }) =>
  noisy(options.source ?? 'astronaut.png', options.width, options.height)
    .png()
    .toBuffer();
