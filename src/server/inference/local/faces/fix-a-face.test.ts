import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../provider';
import { decodeRgb, type RawImage } from '../raw-image';
import { detectFaces } from './detect-faces';
import { fixAFaceEngine } from './fix-a-face';
import { fixtureImage, imageInputFrom } from './fixture-image';
import { humanLoaded } from './human-runtime';

type Area = { x: number; y: number; width: number; height: number };

/** The fixture reduced to `width` (in its own format), through Fix a Face. */
async function fixAFace(name: string, width: number) {
  const image = await imageInputFrom(
    await sharp((await fixtureImage(name)).bytes)
      .resize(width)
      .toBuffer(),
  );
  const result = await fixAFaceEngine({ image }, new AbortController().signal);
  if (result.kind !== 'images') throw new Error(`expected images, got ${result.kind}`);
  return { image, output: result.images };
}

/** The plain 2x lanczos enlargement Fix a Face must improve on. */
async function plainResize(bytes: Buffer): Promise<RawImage> {
  const rgb = await decodeRgb(bytes);
  const { data, info } = await sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
    .resize(rgb.width * 2, rgb.height * 2, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Variance of the Laplacian of the grey levels in `area`: higher is sharper. */
function sharpness(image: RawImage, area: Area): number {
  const grey = (x: number, y: number) => {
    const i = (y * image.width + x) * 3;
    return 0.299 * (image.data[i] ?? 0) + 0.587 * (image.data[i + 1] ?? 0) + 0.114 * (image.data[i + 2] ?? 0);
  };
  const values: number[] = [];
  for (let y = area.y + 1; y < area.y + area.height - 1; y++) {
    for (let x = area.x + 1; x < area.x + area.width - 1; x++) {
      values.push(grey(x - 1, y) + grey(x + 1, y) + grey(x, y - 1) + grey(x, y + 1) - 4 * grey(x, y));
    }
  }
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
}

function meanDifference(a: RawImage, b: RawImage, area: Area): number {
  let total = 0;
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let x = area.x; x < area.x + area.width; x++) {
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) total += Math.abs((a.data[i + c] ?? 0) - (b.data[i + c] ?? 0));
    }
  }
  return total / (area.width * area.height * 3);
}

// The network runs on two shared cores: a few seconds per face. The time limit only catches a hang.
describe('Fix a Face', { timeout: 300_000 }, () => {
  // First: Human must not have been loaded by an earlier test.
  it('refuses an image whose 2x would exceed the output limit, before any model runs', async () => {
    const big = await sharp({ create: { width: 2100, height: 2100, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const error = await fixAFaceEngine({ image: await imageInputFrom(big) }, new AbortController().signal).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options.userMessage).toBe(
      'This image is too large for Fix a Face: please use one of at most 2048 x 2048 pixels.',
    );
    expect(humanLoaded()).toBe(false);
  });

  // Reduced so that each face (110 and 106 px tall, above MIN_FACE_HEIGHT) with its margin fits one
  // 192 px window of the network: 1.6 CPU-s a photo, against 7.6 and 16.8 at 512 px (4 and 9 windows).
  it.each([
    ['astronaut.png', 384],
    ['grace_hopper.jpg', 188],
  ])(
    '%s at %i px: one webp exactly twice the size, the face sharper than a plain resize, the rest unchanged',
    async (name, width) => {
      const { image, output } = await fixAFace(name, width);
      expect(output).toHaveLength(1);
      const [webp] = output;
      if (!webp) throw new Error('no output image');
      expect(webp.contentType).toBe('image/webp');
      expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: 'webp' });
      const fixed = await decodeRgb(webp.bytes);
      expect([fixed.width, fixed.height]).toEqual([image.width * 2, image.height * 2]);

      const plain = await plainResize(image.bytes);
      const [face] = await detectFaces(await decodeRgb(image.bytes));
      if (!face) throw new Error('no face detected');
      // The middle of the face, in output pixels: where the enhancement is applied in full.
      const inner = {
        x: 2 * face.x + Math.round(face.width / 2),
        y: 2 * face.y + Math.round(face.height / 2),
        width: face.width,
        height: face.height,
      };
      expect(sharpness(fixed, inner)).toBeGreaterThan(sharpness(plain, inner) * 1.2);
      expect(meanDifference(fixed, plain, inner)).toBeGreaterThan(1);
      // A corner far from the face is the plain resize (up to webp's loss).
      const corner = { x: 0, y: fixed.height - 64, width: 64, height: 64 };
      expect(meanDifference(fixed, plain, corner)).toBeLessThan(3);
    },
  );

  it('refuses a photo without a face with the message the user sees', async () => {
    const image = await fixtureImage('coffee.png');
    const error = await fixAFaceEngine({ image }, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options.userMessage).toBe(
      "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.",
    );
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const image = await fixtureImage('astronaut.png');
    await expect(fixAFaceEngine({ image }, controller.signal)).rejects.toThrow(/aborted/);
  });
});
