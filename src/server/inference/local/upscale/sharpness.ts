// Test and benchmark helpers: how much fine detail an image holds, how close two images are (PSNR, SSIM),
// and how bench/quality degrades a photo: to tell a restored image from a plain interpolated one.
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

/**
 * Structural similarity (Wang et al. 2004) of the luminance of two images of one size: 1 is
 * identical. Gaussian window of 11 px (sigma 1.5), the paper's constants, averaged over the pixels
 * whose whole window is inside the image.
 */
export function ssim(a: RawImage, b: RawImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('ssim compares images of the same size');
  const { width, height } = a;
  const x = luminance(a);
  const y = luminance(b);
  const product = (p: Float64Array, q: Float64Array) => p.map((v, i) => v * (q[i] ?? 0));
  const [mx, my, xx, yy, xy] = [x, y, product(x, x), product(y, y), product(x, y)].map((m) =>
    gaussianBlur(m, width, height),
  ) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let n = 0;
  for (let row = RADIUS; row < height - RADIUS; row++) {
    for (let col = RADIUS; col < width - RADIUS; col++) {
      const i = row * width + col;
      const ux = mx[i] ?? 0;
      const uy = my[i] ?? 0;
      const vx = (xx[i] ?? 0) - ux * ux;
      const vy = (yy[i] ?? 0) - uy * uy;
      const cov = (xy[i] ?? 0) - ux * uy;
      sum += ((2 * ux * uy + c1) * (2 * cov + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
      n++;
    }
  }
  return sum / n;
}

const RADIUS = 5;
const WINDOW = (() => {
  const w = Array.from({ length: 2 * RADIUS + 1 }, (_, i) => Math.exp(-((i - RADIUS) ** 2) / (2 * 1.5 ** 2)));
  const total = w.reduce((s, v) => s + v, 0);
  return w.map((v) => v / total);
})();

function luminance(image: RawImage): Float64Array {
  const out = new Float64Array(image.width * image.height);
  const c = image.channels;
  for (let i = 0; i < out.length; i++) {
    const r = image.data[i * c] ?? 0;
    out[i] = 0.299 * r + 0.587 * (image.data[i * c + 1] ?? 0) + 0.114 * (image.data[i * c + 2] ?? 0);
  }
  return out;
}

/** Separable Gaussian blur; edge pixels are only read by windows that ssim discards. */
function gaussianBlur(values: Float64Array, width: number, height: number): Float64Array {
  const across = new Float64Array(values.length);
  for (let row = 0; row < height; row++) {
    for (let col = RADIUS; col < width - RADIUS; col++) {
      let s = 0;
      for (let k = -RADIUS; k <= RADIUS; k++) s += (WINDOW[k + RADIUS] ?? 0) * (values[row * width + col + k] ?? 0);
      across[row * width + col] = s;
    }
  }
  const out = new Float64Array(values.length);
  for (let row = RADIUS; row < height - RADIUS; row++) {
    for (let col = 0; col < width; col++) {
      let s = 0;
      for (let k = -RADIUS; k <= RADIUS; k++) s += (WINDOW[k + RADIUS] ?? 0) * (across[(row + k) * width + col] ?? 0);
      out[row * width + col] = s;
    }
  }
  return out;
}

/**
 * A photo as the restoring tools get it in the wild, as bench/quality degrades it: reduced
 * `factor` times (Lanczos), then saved as JPEG at quality 40. Its size must divide by `factor`.
 */
export async function degraded(original: RawImage, factor: number): Promise<RawImage> {
  const jpeg = await fromRaw(original)
    .resize(original.width / factor, original.height / factor, { fit: 'fill', kernel: 'lanczos3' })
    .jpeg({ quality: 40 })
    .toBuffer();
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
