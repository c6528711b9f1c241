// The Background Remover's and Background Swap's engines, on a real portrait with
// the real ISNet (medium, the default). The model is loaded once for the whole file: every job
// below shares it; the small network, on request, gets one cut-out of its own.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImageInput } from '../../../images/image-types';
import { ProviderError, type ToolResult } from '../../provider';
import { cpuSecondsOf } from '../cpu-time';
import { fixtureImage } from '../faces/fixture-image';
import { decodeRgb, type RawImage } from '../raw-image';
import {
  type BackgroundSwapParams,
  createBackgroundRemoverEngine,
  createBackgroundSwapEngine,
} from './background-engines';
import { sceneryBackground } from './scenery';

const SLOW = 300_000; // a hang, not a busy machine: a load and a run took 70 s at a load of 15
const removeBackground = (image: ImageInput, signal = new AbortController().signal) =>
  createBackgroundRemoverEngine('medium')({ image }, signal);
const swapBackground = (params: BackgroundSwapParams) =>
  createBackgroundSwapEngine('medium')(params, new AbortController().signal);

type Box = { left: number; top: number; width: number; height: number };

/** Mean of one channel over a box given in fractions of the image. */
function meanChannel(image: RawImage, box: Box, channel: number): number {
  let sum = 0;
  let n = 0;
  const [x0, y0] = [Math.round(box.left * image.width), Math.round(box.top * image.height)];
  const [x1, y1] = [
    Math.round((box.left + box.width) * image.width),
    Math.round((box.top + box.height) * image.height),
  ];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      sum += image.data[(y * image.width + x) * image.channels + channel] as number;
      n += 1;
    }
  }
  return sum / n;
}

/** Mean absolute difference of RGB over a box of two images of the same size. */
function rgbDifference(a: RawImage, b: RawImage, box: Box): number {
  return [0, 1, 2].reduce((sum, c) => sum + Math.abs(meanChannel(a, box, c) - meanChannel(b, box, c)), 0) / 3;
}

async function decodeAll(result: ToolResult) {
  if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
  return Promise.all(
    result.images.map(async ({ bytes, contentType }) => {
      const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const meta = await sharp(bytes).metadata();
      const pixels: RawImage = { data, width: info.width, height: info.height, channels: 4 };
      return { contentType, format: meta.format, pixels };
    }),
  );
}

// Grace Hopper's portrait (512 x 600): her face is around the middle of the upper half.
const FACE: Box = { left: 0.4, top: 0.25, width: 0.2, height: 0.15 };
const CORNERS: Box[] = [
  { left: 0, top: 0, width: 0.06, height: 0.06 },
  { left: 0.94, top: 0, width: 0.06, height: 0.06 },
];

let upload: ImageInput;
let original: RawImage;

beforeAll(async () => {
  upload = await fixtureImage('grace_hopper.jpg');
  original = await decodeRgb(upload.bytes);
});

describe('Background Remover (local engine)', () => {
  let cutOut: Awaited<ReturnType<typeof decodeAll>>[number];
  /** The job's CPU seconds on this thread (the server's event loop) and in the whole process. */
  let cpu: { thisThread: number; process: number };

  beforeAll(async () => {
    let result: ToolResult | undefined;
    cpu = await cpuSecondsOf(async () => {
      result = await removeBackground(upload);
    });
    const outputs = await decodeAll(result as ToolResult);
    expect(outputs).toHaveLength(1);
    cutOut = outputs[0] as (typeof outputs)[number];
  }, SLOW);

  it('keeps the server responsive while the network runs (seconds, in its own thread)', () => {
    // onnxruntime runs a session on the thread that calls it: ISNet there took 57% of the CPU time;
    // in its own thread this one does 2-3% (the model's load included).
    expect(cpu.thisThread / cpu.process).toBeLessThan(0.25);
  });

  it('answers a PNG with alpha at the size of the upload', () => {
    expect(cutOut.contentType).toBe('image/png');
    expect(cutOut.format).toBe('png');
    expect([cutOut.pixels.width, cutOut.pixels.height]).toEqual([upload.width, upload.height]);
  });

  it('makes the background transparent and keeps the face opaque with its own colours', () => {
    for (const corner of CORNERS) expect(meanChannel(cutOut.pixels, corner, 3)).toBeLessThan(5);
    expect(meanChannel(cutOut.pixels, FACE, 3)).toBeGreaterThan(250);
    expect(rgbDifference(cutOut.pixels, original, FACE)).toBeLessThan(1);
  });

  it(
    'cuts out with the small network too, when configured',
    async () => {
      const small = createBackgroundRemoverEngine('small');
      const [output] = await decodeAll(await small({ image: upload }, new AbortController().signal));
      for (const corner of CORNERS) expect(meanChannel(output?.pixels as RawImage, corner, 3)).toBeLessThan(5);
      expect(meanChannel(output?.pixels as RawImage, FACE, 3)).toBeGreaterThan(250);
    },
    SLOW,
  );

  it('keeps the edge soft: a thin band of partial alpha, not a hard cut', () => {
    const { data, width, height } = cutOut.pixels;
    let partial = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 10 && (data[i] as number) < 245) partial += 1;
    const share = partial / (width * height);
    expect(share).toBeGreaterThan(0.001);
    expect(share).toBeLessThan(0.08);
  });

  it('stops a job whose signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(removeBackground(upload, controller.signal)).rejects.toThrow(/abort/i);
  });

  it('rejects an unreadable upload with a message for the user', async () => {
    const corrupt = { ...upload, bytes: Buffer.concat([upload.bytes.subarray(0, 200), Buffer.from('garbage')]) };
    const failure = removeBackground(corrupt);
    await expect(failure).rejects.toBeInstanceOf(ProviderError);
    await expect(failure).rejects.toMatchObject({
      options: { userMessage: expect.stringMatching(/could not be read/) },
    });
  });
});

describe('an image without a subject', () => {
  // Both tools cut out through cutOut, where the check is. A network run is seconds: Background Swap
  // on a flat white image here; Background Remover on a flat grey one, with its refund, in
  // e2e/batches.test.ts ("refunds the image with no subject alone and says why on it").
  it(
    'a flat #ffffff: Background Swap fails with "No subject found" (the job is refunded), no empty cut-out',
    async () => {
      const flat: ImageInput = {
        bytes: await sharp({ create: { width: 320, height: 240, channels: 3, background: '#ffffff' } })
          .png()
          .toBuffer(),
        mime: 'image/png',
        width: 320,
        height: 240,
      };
      const failure = swapBackground({ image: flat, prompt: 'a beach', count: 1 });
      await expect(failure).rejects.toBeInstanceOf(ProviderError);
      await expect(failure).rejects.toMatchObject({
        options: { userMessage: expect.stringMatching(/^No subject found/), retryable: false },
      });
    },
    SLOW,
  );
});

describe('Background Swap (local engine)', () => {
  const prompt = 'a city skyline at night';
  let outputs: Awaited<ReturnType<typeof decodeAll>>;

  beforeAll(async () => {
    outputs = await decodeAll(await swapBackground({ image: upload, prompt, count: 3 }));
  }, SLOW);

  it('answers as many webp images as asked, the upload fitted into 1024 on its long side', () => {
    expect(outputs).toHaveLength(3);
    for (const output of outputs) {
      expect(output.contentType).toBe('image/webp');
      expect(output.format).toBe('webp');
      expect(output.pixels.height).toBe(1024);
      expect(output.pixels.width).toBe(Math.round((1024 * upload.width) / upload.height));
    }
  });

  it('keeps the subject opaque and unchanged over backgrounds that differ from one image to the next', async () => {
    const scaled = await sharp(upload.bytes)
      .resize(outputs[0]?.pixels.width, 1024, { fit: 'fill' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const reference: RawImage = {
      data: scaled.data,
      width: scaled.info.width,
      height: scaled.info.height,
      channels: 4,
    };
    for (const [variant, { pixels }] of outputs.entries()) {
      expect(meanChannel(pixels, { left: 0, top: 0, width: 1, height: 1 }, 3)).toBe(255);
      expect(rgbDifference(pixels, reference, FACE)).toBeLessThan(6);
      // Around the subject: the scenery drawn for this image, no longer the original's backdrop.
      const scenery = await sharp(sceneryBackground(prompt, variant, pixels.width, pixels.height))
        .ensureAlpha()
        .raw()
        .toBuffer();
      const background: RawImage = { data: scenery, width: pixels.width, height: pixels.height, channels: 4 };
      for (const corner of CORNERS) {
        expect(rgbDifference(pixels, background, corner)).toBeLessThan(4);
        expect(rgbDifference(pixels, reference, corner)).toBeGreaterThan(15);
      }
    }
    for (let i = 0; i < outputs.length; i++) {
      for (let j = i + 1; j < outputs.length; j++) {
        const [a, b] = [outputs[i]?.pixels, outputs[j]?.pixels] as [RawImage, RawImage];
        const side = { left: 0, top: 0.1, width: 0.25, height: 0.6 };
        expect(rgbDifference(a, b, side) + rgbDifference(a, b, { ...side, left: 0.75 })).toBeGreaterThan(5);
      }
    }
  });

  it('marks every image as a demo background in its bottom-right corner', () => {
    for (const { pixels } of outputs) {
      // The light badge sits over the dark uniform, which is far darker without it.
      const badge = { left: 0.72, top: 0.9405, width: 0.23, height: 0.0078 };
      const beside = { left: 0.72, top: 0.9, width: 0.23, height: 0.025 };
      expect(meanChannel(pixels, badge, 1)).toBeGreaterThan(140);
      expect(meanChannel(pixels, beside, 1)).toBeLessThan(90);
    }
  });

  it('rejects an unreadable upload and an impossible number of images', async () => {
    const corrupt = { ...upload, bytes: Buffer.from('not an image at all') };
    await expect(swapBackground({ image: corrupt, prompt, count: 2 })).rejects.toBeInstanceOf(ProviderError);
    await expect(swapBackground({ image: upload, prompt, count: 5 })).rejects.toThrow(/1 to 4/);
  });
});
