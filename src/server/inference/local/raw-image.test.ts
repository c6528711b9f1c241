import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeUpright, splitAlpha } from './raw-image';

/** 40x20 left half opaque red, right half transparent blue, stored on its side (EXIF orientation 6). */
async function sidewaysTransparent() {
  const upright = await sharp({ create: { width: 40, height: 20, channels: 4, background: '#0000ff00' } })
    .composite([
      { input: { create: { width: 20, height: 20, channels: 4, background: '#ff0000ff' } }, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
  // Stored turned left; orientation 6 tells viewers to turn it right again.
  return sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).png().toBuffer();
}

describe('decodeUpright', () => {
  it('decodes upright, RGBA when the image has transparency and RGB when not', async () => {
    const image = await decodeUpright(await sidewaysTransparent());
    expect(image).toMatchObject({ width: 40, height: 20, channels: 4 });
    expect([...image.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect(image.data[(10 * 40 + 39) * 4 + 3]).toBe(0);

    const opaque = await sharp({ create: { width: 8, height: 4, channels: 3, background: '#102030' } })
      .jpeg()
      .toBuffer();
    expect(await decodeUpright(opaque)).toMatchObject({ width: 8, height: 4, channels: 3 });
  });

  it('reduces to the largest side asked for, never enlarging', async () => {
    const bytes = await sidewaysTransparent();
    expect(await decodeUpright(bytes, 10)).toMatchObject({ width: 10, height: 5 });
    expect(await decodeUpright(bytes, 1000)).toMatchObject({ width: 40, height: 20 });
  });
});

describe('splitAlpha', () => {
  it('parts RGBA into RGB and the alpha channel, and leaves RGB as it is', async () => {
    const { rgb, alpha } = await splitAlpha(await decodeUpright(await sidewaysTransparent()));
    expect(rgb).toMatchObject({ width: 40, height: 20, channels: 3 });
    expect(rgb.data).toHaveLength(40 * 20 * 3);
    expect([...rgb.data.subarray(0, 3)]).toEqual([255, 0, 0]);
    expect(alpha).toHaveLength(40 * 20);
    expect([alpha?.[0], alpha?.[39]]).toEqual([255, 0]);

    const opaque = { data: Buffer.alloc(12), width: 2, height: 2, channels: 3 as const };
    expect(await splitAlpha(opaque)).toEqual({ rgb: opaque });
  });
});
