// The demo provider's outputs of a photo taken sideways: the camera stores it 600x512 with EXIF
// orientation 6, and it is shown (and must come back) upright, 512x600, not stretched.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImageInput, ToolInput } from '../provider';
import { createDemoProvider } from './demo-provider';

let photo: ImageInput;
beforeAll(async () => {
  const bytes = await sharp({ create: { width: 600, height: 512, channels: 3, background: '#7a6a5a' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  // As the API reads it from the header: the stored size, before rotation.
  photo = { bytes, mime: 'image/jpeg', width: 600, height: 512 };
});

const demo = createDemoProvider();
const signal = new AbortController().signal;

async function outputSize(input: ToolInput) {
  const result = await demo.run(input, signal);
  if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
  const meta = await sharp(result.images[0]?.bytes).metadata();
  return `${meta.autoOrient.width}x${meta.autoOrient.height}`;
}

describe('demo outputs of an EXIF-rotated photo', () => {
  it('keep its upright size: Colorizer and Background Remover', async () => {
    expect(await outputSize({ tool: 'colorizer', image: photo })).toBe('512x600');
    expect(await outputSize({ tool: 'background-remover', image: photo })).toBe('512x600');
  });

  it('enlarge its upright size: the upscalers and Fix a Face', async () => {
    expect(await outputSize({ tool: 'image-upscaler', image: photo, scale: 2 })).toBe('1024x1200');
    expect(await outputSize({ tool: 'creative-upscaler', image: photo, scale: 2 })).toBe('1024x1200');
    expect(await outputSize({ tool: 'fix-a-face', image: photo, scale: 2 })).toBe('1024x1200');
  });

  it('call it portrait in the analysis', async () => {
    const result = await demo.run({ tool: 'image-analyzer', image: photo }, signal);
    if (result.kind !== 'analysis') throw new Error(`expected an analysis, got ${result.kind}`);
    expect(result.keywords.map((k) => k.keyword)).toContain('portrait');
  });
});

describe('demo cards with an upload (Metamorphose, Background Swap)', () => {
  /** The colour at (x, y) of the first output image, as fractions of its size. */
  async function pixelAt(input: ToolInput, x: number, y: number) {
    const result = await demo.run(input, signal);
    if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
    const { data, info } = await sharp(result.images[0]?.bytes)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const offset = (Math.floor(y * info.height) * info.width + Math.floor(x * info.width)) * 3;
    return [data[offset], data[offset + 1], data[offset + 2]] as number[];
  }

  it('keep the upload clear of the footer and of the words above it', async () => {
    const bytes = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const red: ImageInput = { bytes, mime: 'image/png', width: 400, height: 400 };
    const isRed = ([r, g, b]: number[]) => (r ?? 0) > 200 && (g ?? 0) < 60 && (b ?? 0) < 60;
    for (const input of [
      { tool: 'metamorphose', prompt: 'x', image: red, width: 768, height: 1344, numOutputs: 1, outputQuality: 33 },
      { tool: 'background-swap', prompt: 'x', image: red, numOutputs: 1 },
    ] as ToolInput[]) {
      expect(isRed(await pixelAt(input, 0.5, 0.65)), `${input.tool}: the upload is on the card`).toBe(true);
      // The footer line and the DEMO title stay readable.
      expect(isRed(await pixelAt(input, 0.5, 0.97)), `${input.tool}: footer`).toBe(false);
      expect(isRed(await pixelAt(input, 0.5, 0.12)), `${input.tool}: title`).toBe(false);
    }
  });
});
