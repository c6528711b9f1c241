// Test and benchmark helper: how much fine detail an image holds, and how close two images are,
// to tell a super-resolved image from a plain interpolated one.
import sharp from 'sharp';
import { fromRaw, type RawImage } from '../raw-image';

/** Variance of the Laplacian of the luminance: higher means more edges and texture. */
export async function laplacianVariance(image: RawImage | Buffer): Promise<number> {
  const pipeline = Buffer.isBuffer(image) ? sharp(image) : fromRaw(image);
  const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const at = (j: number) => data[j] ?? 0;
      const v = at(i - 1) + at(i + 1) + at(i - width) + at(i + width) - 4 * at(i);
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/** Peak signal-to-noise ratio in dB between two images of one size (higher is closer). */
export function psnr(a: RawImage, b: RawImage): number {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) {
    throw new Error('psnr compares images of the same size and channels');
  }
  let sumSq = 0;
  for (let i = 0; i < a.data.length; i++) sumSq += ((a.data[i] ?? 0) - (b.data[i] ?? 0)) ** 2;
  return 10 * Math.log10(255 ** 2 / (sumSq / a.data.length));
}

/** The largest difference between two images of one size, over all pixels and channels. */
export function maxDifference(a: RawImage, b: RawImage): number {
  if (a.data.length !== b.data.length) throw new Error('maxDifference compares images of the same size');
  let max = 0;
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0)));
  return max;
}
