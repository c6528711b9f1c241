import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IMAGES } from '../faces/fixture-image';
import { decodeRgb, fromRaw, type RawImage } from '../raw-image';
import { laplacianVariance, maxDifference, psnr } from './sharpness';
import {
  DEFAULT_TILING,
  loadRealEsrganNetwork,
  loadSrNetwork,
  REAL_ESRGAN_TILING,
  superResolve,
  superResolveTiled,
} from './super-resolve';

const SLOW = 60_000;

/** A small piece of the astronaut photo (her face is around 170..330 x 60..260), to keep runs short. */
async function astronaut(left: number, top: number, width: number, height: number): Promise<RawImage> {
  const png = await sharp(path.join(FIXTURE_IMAGES, 'astronaut.png')).extract({ left, top, width, height }).png();
  return decodeRgb(await png.toBuffer());
}

async function resized(image: RawImage, width: number, height: number) {
  return decodeRgb(await fromRaw(image).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer());
}

describe('superResolve', () => {
  it(
    'enlarges RGB exactly 2, 3 and 4 times, whatever the size against the tiles',
    async () => {
      const image = await astronaut(200, 100, 70, 45);
      for (const scale of [2, 3, 4] as const) {
        const out = await superResolve(image, scale);
        expect({ width: out.width, height: out.height, channels: out.channels }).toEqual({
          width: 70 * scale,
          height: 45 * scale,
          channels: 3,
        });
        expect(out.data.length).toBe(70 * scale * 45 * scale * 3);
      }
    },
    SLOW,
  );

  it(
    'at 4x, is much sharper than a Lanczos resize and no further from the real photo',
    async () => {
      // The real photo at full size is the truth; the network only sees it at a quarter.
      const truth = await astronaut(144, 48, 192, 192);
      const quarter = await resized(truth, 48, 48);
      const network = await superResolve(quarter, 4);
      const lanczos = await resized(quarter, 192, 192);

      expect(await laplacianVariance(network)).toBeGreaterThan(3 * (await laplacianVariance(lanczos)));
      expect(psnr(network, truth)).toBeGreaterThan(psnr(lanczos, truth));
    },
    SLOW,
  );

  it(
    'at 2x, restores detail closer to the real photo than a Lanczos resize',
    async () => {
      const truth = await astronaut(144, 48, 192, 192);
      const half = await resized(truth, 96, 96);
      const network = await superResolve(half, 2);
      const lanczos = await resized(half, 192, 192);

      // Measured: +1.8 dB on this crop (+1.5 to +2.9 dB on the other fixtures).
      expect(psnr(network, truth)).toBeGreaterThan(psnr(lanczos, truth) + 1);
    },
    SLOW,
  );

  it(
    'leaves no seam between tiles: tiled and single-pass outputs match, while tiles without margin do not',
    async () => {
      const image = await astronaut(160, 80, 96, 80);
      const network = await loadSrNetwork(2, 'slim', 'onnx');
      const singlePass = await superResolveTiled(network, image, 2, { tile: 1000, padding: 0 });
      const tiled = await superResolveTiled(network, image, 2, { tile: 32, padding: 8 });
      const noMargin = await superResolveTiled(network, image, 2, { tile: 32, padding: 0 });

      expect(maxDifference(tiled, singlePass)).toBeLessThanOrEqual(2);
      expect(maxDifference(noMargin, singlePass)).toBeGreaterThan(20);
    },
    SLOW,
  );

  it(
    "leaves no seam between Real-ESRGAN's tiles with their wider margin, where the RDN margin would show",
    async () => {
      const image = await astronaut(120, 100, 160, 160);
      const network = await loadRealEsrganNetwork('x4fast');
      const singlePass = await superResolveTiled(network, image, 4, { tile: 1000, padding: 0 });
      const tile = 64;
      const tiled = await superResolveTiled(network, image, 4, { tile, padding: REAL_ESRGAN_TILING.padding });
      const rdnMargin = await superResolveTiled(network, image, 4, { tile, padding: DEFAULT_TILING.padding });

      // Measured: at most 4 levels apart with 16 px, 12-20 with 8 px (99 with none).
      expect(maxDifference(tiled, singlePass)).toBeLessThanOrEqual(6);
      expect(maxDifference(rdnMargin, singlePass)).toBeGreaterThan(8);
    },
    SLOW,
  );

  it(
    'runs the same network on onnxruntime as on TensorFlow.js, where the weights come from',
    async () => {
      const image = await astronaut(200, 100, 40, 32);
      for (const scale of [2, 3, 4] as const) {
        const [onnx, tfjs] = await Promise.all([
          loadSrNetwork(scale, 'slim', 'onnx'),
          loadSrNetwork(scale, 'slim', 'tfjs'),
        ]);
        const options = { tile: 1000, padding: 0 };
        const fromOnnx = await superResolveTiled(onnx, image, scale, options);
        const fromTfjs = await superResolveTiled(tfjs, image, scale, options);
        // Float rounding only: the rebuilt graph is the same function.
        expect(maxDifference(fromOnnx, fromTfjs)).toBeLessThanOrEqual(1);
      }
    },
    SLOW,
  );

  it(
    'stops when its signal is aborted, before or during the run, and the next run still works',
    async () => {
      const image = await astronaut(100, 100, 200, 200);
      const before = new AbortController();
      before.abort();
      await expect(superResolve(image, 2, before.signal)).rejects.toThrow(/abort/i);

      // Cancelled while the first window runs: no further window is computed.
      const during = new AbortController();
      const network = await loadSrNetwork(2, 'slim', 'onnx');
      let windowsRun = 0;
      const cancelling: typeof network = async (...args) => {
        windowsRun += 1;
        during.abort();
        return network(...args);
      };
      await expect(superResolveTiled(cancelling, image, 2, DEFAULT_TILING, during.signal)).rejects.toThrow(/abort/i);
      expect(windowsRun).toBe(1);

      const small = await superResolve(await astronaut(200, 100, 16, 16), 2);
      expect(small.width).toBe(32);
    },
    SLOW,
  );

  it('refuses pixels that are not RGB, with a clear error', async () => {
    const rgba: RawImage = { data: Buffer.alloc(8 * 8 * 4), width: 8, height: 8, channels: 4 };
    await expect(superResolve(rgba, 2)).rejects.toThrow('super-resolution takes RGB pixels, got 4 channels');
    const short: RawImage = { data: Buffer.alloc(10), width: 8, height: 8, channels: 3 };
    await expect(superResolve(short, 2)).rejects.toThrow('does not match 8x8 RGB');
  });
});
