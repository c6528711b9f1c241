import { describe, expect, it } from 'vitest';
import { fromRaw, type RawImage, resizedTo } from '../raw-image';
import {
  CALIBRATION_SHARES,
  calibratedMix,
  calibratedShare,
  mixWithLanczos,
  NETWORK_SHARE,
  withFidelity,
} from './fidelity';
import { psnr } from './sharpness';

const SLOW = 30_000;

/** A smooth gradient with a soft diagonal ridge: what a photo's true content looks like at 4x. */
function truth(width: number, height: number): RawImage {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ridge = 80 * Math.exp(-(((x - y) / 6) ** 2));
      const v = 60 + x + ridge;
      data.set([v, v * 0.8, 255 - v], (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

/** A photo-like texture with detail at every scale, so a 4x reduction loses something. */
function textured(side: number): RawImage {
  const data = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const v = 128 + 50 * Math.sin(x / 7) * Math.cos(y / 11) + 30 * Math.sin((x + 2 * y) / 3);
      data.set([v, v * 0.9, 255 - v], (y * side + x) * 3);
    }
  }
  return { data, width: side, height: side, channels: 3 };
}

/** A network that loses the picture: flat grey at 4x. */
const flatGrey = async (image: RawImage): Promise<RawImage> => ({
  data: Buffer.alloc(image.width * 4 * image.height * 4 * 3, 128),
  width: image.width * 4,
  height: image.height * 4,
  channels: 3,
});

describe('withFidelity', () => {
  it(
    'moves a network output that lost the input (here: flat grey) towards the photo',
    async () => {
      const original = truth(64, 64);
      const input = await resizedTo(original, 16, 16);
      const flat: RawImage = { data: Buffer.alloc(64 * 64 * 3, 128), width: 64, height: 64, channels: 3 };
      const mixed = await withFidelity(flat, input);
      expect(psnr(mixed, original)).toBeGreaterThan(psnr(flat, original) + 3);
      // Its reduction is closer to the input than the network's was.
      const error = async (image: RawImage) => {
        const reduced = await resizedTo(image, 16, 16);
        return reduced.data.reduce((sum, v, i) => sum + Math.abs(v - (input.data[i] ?? 0)), 0);
      };
      expect(await error(mixed)).toBeLessThan((await error(flat)) * 0.75);
    },
    SLOW,
  );

  it(
    "keeps the network's share of every pixel and Lanczos's for the rest",
    async () => {
      const input = await resizedTo(truth(32, 32), 8, 8);
      const restored = truth(32, 32);
      const lanczos = await resizedTo(input, 32, 32);
      expect(await withFidelity(restored, input, 1)).toEqual(restored);
      expect((await withFidelity(restored, input, 0)).data).toEqual(lanczos.data);
      const half = await withFidelity(restored, input, 0.5);
      for (const i of [0, 100, 1000, 3000]) {
        expect(
          Math.abs((half.data[i] ?? 0) - ((restored.data[i] ?? 0) + (lanczos.data[i] ?? 0)) / 2),
        ).toBeLessThanOrEqual(1);
      }
    },
    SLOW,
  );

  it(
    'mixes two networks and Lanczos by their shares (the Creative Upscaler)',
    async () => {
      const input = await resizedTo(truth(32, 32), 8, 8);
      const large = truth(32, 32);
      const compact: RawImage = { data: Buffer.alloc(32 * 32 * 3, 40), width: 32, height: 32, channels: 3 };
      const lanczos = await resizedTo(input, 32, 32);
      const mixed = await mixWithLanczos(
        [
          { image: large, share: 0.5 },
          { image: compact, share: 0.25 },
        ],
        input,
      );
      for (const i of [0, 77, 1500, 3071]) {
        const expected = 0.5 * (large.data[i] ?? 0) + 0.25 * 40 + 0.25 * (lanczos.data[i] ?? 0);
        expect(Math.abs((mixed.data[i] ?? 0) - expected)).toBeLessThanOrEqual(1);
      }
      await expect(
        mixWithLanczos(
          [
            { image: large, share: 0.8 },
            { image: compact, share: 0.4 },
          ],
          input,
        ),
      ).rejects.toThrow(/share/);
      await expect(
        mixWithLanczos(
          [
            { image: truth(16, 16), share: 0.5 },
            { image: large, share: 0.2 },
          ],
          input,
        ),
      ).rejects.toThrow(/one size/);
    },
    SLOW,
  );

  it('refuses a share outside 0..1', async () => {
    const input = truth(4, 4);
    await expect(withFidelity(truth(16, 16), input, 1.5)).rejects.toThrow(/share/);
  });
});

describe('calibratedShare', () => {
  it(
    'gives a network that loses the picture (flat grey) the smallest share',
    async () => {
      expect(await calibratedShare(textured(128), flatGrey)).toBe(CALIBRATION_SHARES[0]);
    },
    SLOW,
  );

  it(
    'gives a network that restores the picture exactly the largest share',
    async () => {
      const input = textured(200);
      // The centre crop the calibration reduces and asks the network to restore.
      const crop = await fromRaw(input).extract({ left: 0, top: 0, width: 200, height: 200 }).raw().toBuffer();
      const exact = async (): Promise<RawImage> => ({ data: crop, width: 200, height: 200, channels: 3 });
      expect(await calibratedShare(input, exact)).toBe(CALIBRATION_SHARES.at(-1));
    },
    SLOW,
  );

  it('keeps the fixed share for an image too small to measure, without running the network', async () => {
    let runs = 0;
    const network = async (image: RawImage) => {
      runs++;
      return image;
    };
    expect(await calibratedShare(textured(48), network)).toBe(NETWORK_SHARE);
    expect(runs).toBe(0);
  });
});

describe('calibratedMix', () => {
  it(
    'gives the network that restores the picture the larger share, the one that loses it the smaller',
    async () => {
      const input = textured(200);
      const crop = await fromRaw(input).extract({ left: 0, top: 0, width: 200, height: 200 }).raw().toBuffer();
      const exact = async (): Promise<RawImage> => ({ data: crop, width: 200, height: 200, channels: 3 });
      const candidates = [
        [0.2, 0.6],
        [0.4, 0.4],
        [0.6, 0.2],
      ];
      expect(await calibratedMix(input, [exact, flatGrey], candidates, [0.5, 0.25])).toEqual([0.6, 0.2]);
      expect(await calibratedMix(input, [flatGrey, exact], candidates, [0.5, 0.25])).toEqual([0.2, 0.6]);
    },
    SLOW,
  );

  it(
    'measures at the tool’s enlargement: a 2x tool’s networks restore a 2x reduction of the crop',
    async () => {
      const seen: number[] = [];
      const network = async (image: RawImage) => {
        seen.push(image.width);
        return flatGrey(image);
      };
      await calibratedMix(textured(128), [network], [[0.5]], [0.65], { factor: 2 });
      await calibratedMix(textured(128), [network], [[0.5]], [0.65]);
      expect(seen).toEqual([64, 32]);
    },
    SLOW,
  );
});
