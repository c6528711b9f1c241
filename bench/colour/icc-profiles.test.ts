// test/support/icc-profiles.ts, which bench/colour tags its photos with (here: the unit project runs
// bench/**/*.test.ts, not test/support): the Adobe RGB (1998) compatible profile converts as lcms
// (through sharp) and Adobe's figures say, a profile attached to a PNG leaves its numbers as they
// are, and a profile's colours read unclipped agree with sharp's conversion inside sRGB.
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngWithMetadata } from '../../src/server/images/finishing/embedded-metadata';
import {
  ADOBE_RGB_DESCRIPTION,
  adobeRgbProfile,
  adobeRgbProfilePath,
  adobeRgbToD50,
  profileDescription,
  profileToLinearSrgb,
} from '../../test/support/icc-profiles';
import { ciede2000, linearSrgbToLab, srgbDeltaE, srgbToLab } from './ciede2000';

type Rgb = [number, number, number];
const flat = ([r, g, b]: Rgb, size = 4) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
const firstPixel = async (image: Sharp) => [...(await image.raw().toBuffer()).subarray(0, 3)];
const builtIn = async (name: 'p3' | 'srgb') =>
  (
    await sharp(
      await sharp(await flat([255, 0, 0]))
        .withIccProfile(name)
        .png()
        .toBuffer(),
    ).metadata()
  ).icc as Buffer;

describe('the Adobe RGB (1998) compatible profile', () => {
  it("has Adobe's colorants, adapted to D50 with Bradford (Adobe RGB (1998) specification, annex C)", () => {
    const want = [
      [0.6097, 0.2053, 0.1492],
      [0.3111, 0.6257, 0.0632],
      [0.0195, 0.0609, 0.7446],
    ];
    adobeRgbToD50().forEach((row, i) => {
      row.forEach((value, j) => {
        expect(value).toBeCloseTo(want[i]?.[j] as number, 3);
      });
    });
  });

  it('is an ICC v2 RGB display profile with its description and a gamma of 563/256', () => {
    const icc = adobeRgbProfile();
    expect(icc.readUInt32BE(0)).toBe(icc.length);
    expect(icc.readUInt8(8)).toBe(2);
    expect(icc.toString('latin1', 12, 24)).toBe('mntrRGB XYZ ');
    expect(icc.toString('latin1', 36, 40)).toBe('acsp');
    expect(profileDescription(icc)).toBe(ADOBE_RGB_DESCRIPTION);
  });

  it('converts sRGB red to about (219, 0, 0), and back to (255, 0, 0)', async () => {
    const tagged = await sharp(await flat([255, 0, 0]))
      .withIccProfile(adobeRgbProfilePath())
      .png()
      .toBuffer();
    const meta = await sharp(tagged).metadata();
    expect(profileDescription(meta.icc as Buffer)).toBe(ADOBE_RGB_DESCRIPTION);
    const [r = 0, g = 0, b = 0] = await firstPixel(sharp(tagged, { ignoreIcc: true }));
    expect(Math.abs(r - 219)).toBeLessThanOrEqual(1);
    expect(g + b).toBeLessThanOrEqual(1);
    // sharp converts an embedded profile to sRGB by default.
    expect(await firstPixel(sharp(tagged))).toEqual([255, 0, 0]);
  });
});

describe('a profile attached to a PNG', () => {
  it('keeps the numbers and changes what they mean', async () => {
    const png = await flat([200, 60, 60]);
    const tagged = pngWithMetadata(png, { icc: adobeRgbProfile() });
    expect((await sharp(tagged).metadata()).icc?.equals(adobeRgbProfile())).toBe(true);
    expect(await firstPixel(sharp(tagged, { ignoreIcc: true }))).toEqual([200, 60, 60]);
    // Adobe RGB's (200, 60, 60) is a redder red than sRGB's.
    const [r = 0] = await firstPixel(sharp(tagged));
    expect(r).toBeGreaterThan(210);
  });

  it('replaces a profile the PNG had', async () => {
    const p3 = await sharp(await flat([10, 200, 30]))
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const retagged = pngWithMetadata(p3, { icc: adobeRgbProfile() });
    expect(profileDescription((await sharp(retagged).metadata()).icc as Buffer)).toBe(ADOBE_RGB_DESCRIPTION);
    expect(await firstPixel(sharp(retagged, { ignoreIcc: true }))).toEqual(
      await firstPixel(sharp(p3, { ignoreIcc: true })),
    );
  });
});

describe("a profile's colours read unclipped", () => {
  it("reads sharp's built-in profiles (v4, parametric curves) and names them", async () => {
    expect(profileDescription(await builtIn('p3'))).toBe('sP3C');
    const srgb = profileToLinearSrgb(await builtIn('srgb'));
    for (const colour of [
      [255, 0, 0],
      [20, 128, 240],
      [128, 128, 128],
    ] as Rgb[])
      expect(ciede2000(linearSrgbToLab(srgb?.(colour) as Rgb), srgbToLab(colour))).toBeLessThan(0.05);
  });

  it("agrees with sharp's conversion to sRGB inside sRGB, and goes past it outside", async () => {
    for (const icc of [adobeRgbProfile(), await builtIn('p3')]) {
      const toSrgb = profileToLinearSrgb(icc);
      for (const colour of [
        [200, 150, 120],
        [120, 140, 170],
        [128, 128, 128],
        [150, 160, 60],
      ] as Rgb[]) {
        const converted = (await firstPixel(sharp(pngWithMetadata(await flat(colour), { icc })))) as Rgb;
        // 8-bit rounding of sharp's result: well under a visible difference.
        expect(ciede2000(linearSrgbToLab(toSrgb?.(colour) as Rgb), srgbToLab(converted))).toBeLessThan(0.5);
      }
      // The space's green lies outside sRGB (Adobe RGB's red and blue are sRGB's): a channel below
      // 0, which 8-bit sRGB clips to (0, 255, 0).
      const green = toSrgb?.([0, 255, 0]) as Rgb;
      expect(Math.min(...green)).toBeLessThan(-0.01);
      expect(await firstPixel(sharp(pngWithMetadata(await flat([0, 255, 0]), { icc })))).toEqual([0, 255, 0]);
      expect(ciede2000(linearSrgbToLab(green), srgbToLab([0, 255, 0]))).toBeGreaterThan(3);
    }
    expect(srgbDeltaE([255, 0, 0], [255, 0, 0])).toBe(0);
  });
});
