// The demo provider (inference/demo/) drawing each tool's demo (here in tools/: the demos are the tool
// modules'). Its outputs of a photo taken sideways: the camera stores it 600x512 with EXIF
// orientation 6, and it is shown (and must come back) upright, 512x600, not stretched.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImageInput } from '../images/image-types';
import { createDemoProvider } from '../inference/demo/demo-provider';
import { SERVER_TOOLS, type ToolInput } from './registry';

let photo: ImageInput;
beforeAll(async () => {
  const bytes = await sharp({ create: { width: 600, height: 512, channels: 3, background: '#7a6a5a' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  // As the API reads it from the header: the stored size, before rotation.
  photo = { bytes, mime: 'image/jpeg', width: 600, height: 512 };
});

const demo = createDemoProvider(SERVER_TOOLS);
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

describe('the Colorizer demo', () => {
  it('tints the photo sepia: warm, not grey', async () => {
    const grey = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const result = await demo.run(
      { tool: 'colorizer', image: { bytes: grey, mime: 'image/png', width: 64, height: 64 } },
      signal,
    );
    if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
    const { channels } = await sharp(result.images[0]?.bytes).stats();
    const [red, , blue] = channels.map((channel) => channel.mean);
    expect((red ?? 0) - (blue ?? 0)).toBeGreaterThan(15);
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

describe('every Metamorphose size, with a tall and a wide upload', () => {
  /** Rows (fractions of the height) holding a pixel of the pure-red upload. */
  async function redRows(input: ToolInput): Promise<{ first: number; last: number }> {
    const result = await demo.run(input, signal);
    if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
    const { data, info } = await sharp(result.images[0]?.bytes)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let first = 1;
    let last = 0;
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const i = (y * info.width + x) * 3;
        if ((data[i] ?? 0) > 220 && (data[i + 1] ?? 0) < 40 && (data[i + 2] ?? 0) < 40) {
          first = Math.min(first, y / info.height);
          last = Math.max(last, y / info.height);
          break;
        }
      }
    }
    return { first, last };
  }

  it('lays the upload out below the words and above the footer, covering neither', async () => {
    for (const [w, h] of [
      [200, 900],
      [900, 200],
    ]) {
      const bytes = await sharp({ create: { width: w ?? 1, height: h ?? 1, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer();
      const red: ImageInput = { bytes, mime: 'image/png', width: w ?? 1, height: h ?? 1 };
      for (const [width, height] of [
        [1024, 1024],
        [768, 1344],
        [1344, 768],
      ]) {
        const rows = await redRows({
          tool: 'metamorphose',
          prompt: 'a long prompt that wraps onto a second line of the card',
          image: red,
          width: width ?? 0,
          height: height ?? 0,
          numOutputs: 1,
          outputQuality: 33,
        } as ToolInput);
        const where = `${w}x${h} upload on ${width}x${height}`;
        expect(rows.last, `${where}: on the card`).toBeGreaterThan(rows.first);
        // DEMO, the title and two prompt lines end above 0.38; the footer line starts below 0.92.
        expect(rows.first, `${where}: below the words`).toBeGreaterThanOrEqual(0.38);
        expect(rows.last, `${where}: above the footer`).toBeLessThanOrEqual(0.9);
      }
    }
  });
});

describe('the demo Colorizer on photos taken in every EXIF orientation', () => {
  it('answers the upright size, never stretched', async () => {
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const bytes = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#556677' } })
        .jpeg()
        .withMetadata({ orientation })
        .toBuffer();
      const turned = orientation >= 5;
      const result = await demo.run(
        { tool: 'colorizer', image: { bytes, mime: 'image/jpeg', width: 300, height: 120 } },
        signal,
      );
      if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
      const meta = await sharp(result.images[0]?.bytes).metadata();
      const upright = meta.autoOrient;
      expect(`${upright.width}x${upright.height}`, `orientation ${orientation}`).toBe(turned ? '120x300' : '300x120');
    }
  });
});
