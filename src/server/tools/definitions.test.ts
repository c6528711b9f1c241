// The image shapes each tool takes (contract IMAGE_SHAPE_LIMITS, decision 015), at their
// boundaries: refused before anything is charged, with a message that says what is wrong.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SHAPE_LIMITS, type ImageToolId, WEBP_MAX_SIDE } from '../../contract/tools';
import { InputError } from '../images/image-input';
import { prepareTool } from './definitions';

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#6c5ce7' } })
    .png()
    .toBuffer();
});

/** The PNG with its header claiming `width` x `height` (sizes are checked before any decoder runs). */
function claiming(width: number, height: number): string {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  return `data:image/png;base64,${copy.toString('base64')}`;
}

const bodyFor = (tool: ImageToolId, image: string) =>
  tool === 'metamorphose' ? { prompt: 'x', main_face_image: image } : { prompt: 'x', image, scale: 2 };

function refusal(tool: ImageToolId, width: number, height: number): string | null {
  try {
    prepareTool(tool, bodyFor(tool, claiming(width, height)));
    return null;
  } catch (error) {
    if (error instanceof InputError) return `${error.status} ${error.reason}`;
    throw error;
  }
}

const tools = Object.keys(IMAGE_SHAPE_LIMITS) as ImageToolId[];

describe.each(tools)('%s image shapes', (tool) => {
  const { minSide, maxAspect } = IMAGE_SHAPE_LIMITS[tool];
  const long = minSide * maxAspect;

  it(`takes a shortest side of ${minSide} px and a longest ${maxAspect} times as long, either way round`, () => {
    expect(refusal(tool, long, minSide)).toBeNull();
    expect(refusal(tool, minSide, long)).toBeNull();
  });

  it(`refuses a shortest side under ${minSide} px`, () => {
    expect(refusal(tool, minSide - 1, minSide - 1)).toBe(
      `400 This image is ${minSide - 1} x ${minSide - 1} px; its shortest side must be at least ${minSide} px. Please choose a larger image.`,
    );
  });

  it(`refuses a longest side over ${maxAspect} times the shortest`, () => {
    expect(refusal(tool, long + 1, minSide)).toBe(
      `400 This image is ${long + 1} x ${minSide} px; its longest side can be at most ${maxAspect} times its shortest. Please crop it and try again.`,
    );
    expect(refusal(tool, 100, 100 * maxAspect + 1)).toMatch(/its longest side can be at most/);
  });

  it('refuses the shapes an outside review sent (100000x1, 16384x1, 20000x2)', () => {
    for (const [width, height] of [
      [100000, 1],
      [16384, 1],
      [20000, 2],
    ] as const) {
      expect(refusal(tool, width, height), `${width}x${height}`).toMatch(/^4\d\d This image is/);
    }
  });
});

describe('the Colorizer, whose webp output has the upload size', () => {
  it(`takes a longest side of ${WEBP_MAX_SIDE} px and refuses one more`, () => {
    expect(refusal('colorizer', WEBP_MAX_SIDE, 1639)).toBeNull();
    expect(refusal('colorizer', WEBP_MAX_SIDE + 1, 1639)).toBe(
      `413 This image is 16,384 x 1,639 px; its longest side can be at most 16,383 px. Please choose a smaller image.`,
    );
  });
});
