// The result's file (issue 41): profiles, orientation, metadata, formats and the cut-out's finishing,
// through the same two steps a job takes: the upload conditioned for the model (source-photo.ts),
// a stand-in model that only enlarges it, and the output finished (result-file.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colourTagsOf } from '../../../../test/support/colour-tags';
import { adobeRgbProfile } from '../../../../test/support/icc-profiles';
import { OUTPUT_FORMAT_TYPES, OUTPUT_FORMATS } from '../../../contract/output-files';
import type { ImageInput, ImageMime } from '../image-types';
import { convertedFile, TransparentAsJpegError } from './converted-file';
import {
  EXIF_COLOR_SPACE_SRGB,
  exifColorSpace,
  exifForResult,
  exifHasLocation,
  pngWithMetadata,
  xmpForResult,
} from './embedded-metadata';
import { finishResultImage, type ResultFileOptions } from './result-file';
import { conditionUpload } from './source-photo';

const W = 48;
const H = 32;

/** A picture whose left half is pure red and right half pure green, in raw numbers. */
function halves(channels: 3 | 4 = 3, alphaRight = 255): Buffer {
  const data = Buffer.alloc(W * H * channels);
  for (let i = 0; i < W * H; i++) {
    const left = i % W < W / 2;
    data[i * channels] = left ? 255 : 0;
    data[i * channels + 1] = left ? 0 : 255;
    if (channels === 4) data[i * channels + 3] = left ? 255 : alphaRight;
  }
  return data;
}

const rawPng = (data: Buffer, channels: 3 | 4 = 3) =>
  sharp(data, { raw: { width: W, height: H, channels } })
    .png()
    .toBuffer();

const p3Profile = async () =>
  (
    await sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } })
      .withIccProfile('p3')
      .png()
      .toBuffer()
      .then((png) => sharp(png).metadata())
  ).icc as Buffer;

/** The numbers of `halves()` tagged with `icc` as they are (not converted). */
const tagged = async (icc: Buffer) => pngWithMetadata(await rawPng(halves()), { icc });

const upload = async (bytes: Buffer, mime: ImageMime = 'image/png'): Promise<ImageInput> => {
  const meta = await sharp(bytes).metadata();
  return { bytes, mime, width: meta.width ?? 0, height: meta.height ?? 0 };
};

/** What a model does here: the picture twice as large, as a webp, untagged. */
const model = async (image: ImageInput) => ({
  bytes: await sharp(image.bytes)
    .resize(image.width * 2, image.height * 2, { kernel: 'nearest' })
    .webp({ quality: 95, alphaQuality: 100 })
    .toBuffer(),
  contentType: 'image/webp' as const,
});

async function throughTool(bytes: Buffer, options: ResultFileOptions = {}, mime: ImageMime = 'image/png') {
  const { image, source } = await conditionUpload(await upload(bytes, mime));
  return finishResultImage(await model(image), options, source);
}

/** The pixel at (x, y) as stored (numbers), and as sRGB (the embedded profile applied). */
async function pixel(bytes: Buffer, x: number, y: number, asStored = true) {
  const { data, info } = await sharp(bytes, { ignoreIcc: asStored }).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + info.channels)];
}

const near = (actual: number[], expected: number[], tolerance = 4) =>
  expect(actual.slice(0, expected.length).every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance)).toBe(true);

describe('colour profiles: the result looks as the upload did', () => {
  it.each([
    ['Display P3', p3Profile],
    ['Adobe RGB', async () => adobeRgbProfile()],
  ])('%s: the profile is kept and the numbers are untouched, in every format', async (_name, profileOf) => {
    const icc = await profileOf();
    const input = await tagged(icc);
    for (const format of OUTPUT_FORMATS) {
      const out = await throughTool(input, { format });
      expect(out.contentType).toBe(OUTPUT_FORMAT_TYPES[format]);
      const meta = await sharp(out.bytes).metadata();
      expect(meta.icc?.equals(icc), format).toBe(true);
      near(await pixel(out.bytes, 4, 4), [255, 0, 0], 6);
      near(await pixel(out.bytes, 90, 4), [0, 255, 0], 6);
      // Seen through its profile it is the upload's colour, which lies outside sRGB.
      near(await pixel(out.bytes, 4, 4, false), await pixel(input, 2, 2, false), 6);
    }
  });

  it.each(['jpeg', 'png', 'webp'] as const)(
    'a tagged %s reaches the model as the same file untagged, its numbers as stored',
    async (kind) => {
      const icc = await p3Profile();
      const pipeline = sharp(await tagged(icc), { ignoreIcc: true }).keepIccProfile();
      const bytes = await (kind === 'jpeg'
        ? pipeline.jpeg({ quality: 95 })
        : kind === 'png'
          ? pipeline.png()
          : pipeline.webp({ lossless: true })
      ).toBuffer();
      expect((await sharp(bytes).metadata()).icc).toBeDefined();
      const { image, source } = await conditionUpload(await upload(bytes, `image/${kind}`));
      expect(image.mime).toBe(`image/${kind}`);
      expect((await sharp(image.bytes).metadata()).icc).toBeUndefined();
      expect(source.icc?.equals(icc)).toBe(true);
      const [before, after] = await Promise.all([
        sharp(bytes, { ignoreIcc: true }).raw().toBuffer(),
        sharp(image.bytes).raw().toBuffer(),
      ]);
      expect(after.equals(before)).toBe(true);
    },
  );

  it('an sRGB-tagged upload comes back sRGB-tagged; an untagged one reaches the model as it is', async () => {
    const srgb = await sharp(await rawPng(halves()))
      .withIccProfile('srgb')
      .png()
      .toBuffer();
    const fromSrgb = await throughTool(srgb);
    expect((await sharp(fromSrgb.bytes).metadata()).icc).toBeDefined();
    const plain = await rawPng(halves());
    const { image } = await conditionUpload(await upload(plain));
    expect(image.bytes).toBe(plain);
  });

  it('a CMYK upload is converted to sRGB and its result tagged sRGB', async () => {
    const cmyk = await sharp(await rawPng(halves()))
      .withIccProfile('cmyk')
      .jpeg({ quality: 95 })
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const out = await throughTool(cmyk, {}, 'image/jpeg');
    const meta = await sharp(out.bytes).metadata();
    expect(meta.space).toBe('srgb');
    expect(meta.icc).toBeDefined();
    const [r, g, b] = await pixel(out.bytes, 4, 4, false);
    expect(r).toBeGreaterThan(180);
    expect(Math.max(g ?? 0, b ?? 0)).toBeLessThan(90);
  });

  it('a 16-bit upload reaches the model as 8-bit with the same colours', async () => {
    const sixteen = await sharp(await rawPng(halves()))
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(sixteen).metadata()).depth).toBe('ushort');
    const { image } = await conditionUpload(await upload(sixteen));
    expect((await sharp(image.bytes).metadata()).depth).toBe('uchar');
    near(await pixel(image.bytes, 2, 2), [255, 0, 0], 1);
  });
});

describe('an untagged upload’s result is tagged sRGB in every format (issue 54)', () => {
  /** An untagged photo as a camera or an editor writes one: EXIF saying "Uncalibrated", a density. */
  const untaggedWithExif = async (kind: 'jpeg' | 'png') => {
    const pipeline = sharp(await rawPng(halves()))
      .withExif({ IFD0: { Make: 'Canon', Copyright: 'Jane Doe 2026' } })
      .withDensity(300);
    const bytes = await (kind === 'jpeg' ? pipeline.jpeg({ quality: 98 }) : pipeline.png()).toBuffer();
    const meta = await sharp(bytes).metadata();
    expect(meta.icc).toBeUndefined();
    expect(exifColorSpace(meta.exif as Buffer)).toBe(0xffff);
    return bytes;
  };

  /** Tagged sRGB (an AVIF by its `colr` box too), EXIF not "Uncalibrated", the numbers as uploaded. */
  async function expectSrgbResult(bytes: Buffer, format: string, exifWritten: boolean) {
    const tags = await colourTagsOf(bytes);
    expect(tags.profile, format).toMatch(/sRGB/);
    if (format === 'avif') expect(tags.colr.length, format).toBeGreaterThan(0);
    expect(tags.exifColorSpace, format).toBe(exifWritten ? EXIF_COLOR_SPACE_SRGB : undefined);
    const [left, right] = [await pixel(bytes, 2, 2), await pixel(bytes, 90, 2)];
    near(left, [255, 0, 0], 8);
    near(right, [0, 255, 0], 8);
  }

  it.each(['jpeg', 'png'] as const)('an untagged %s with EXIF, in each format', async (kind) => {
    const input = await untaggedWithExif(kind);
    for (const format of OUTPUT_FORMATS) {
      const out = await throughTool(input, { format }, `image/${kind}`);
      await expectSrgbResult(out.bytes, format, true);
      expect((await sharp(out.bytes).metadata()).exif?.includes('Jane Doe 2026'), format).toBe(true);
    }
  });

  it('the issue’s photo: an untagged JPEG with a JFIF density and no EXIF, in each format', async () => {
    const photo = readFileSync(path.join(import.meta.dirname, '../../../../test/fixtures/images/grace_hopper.jpg'));
    const meta = await sharp(photo).metadata();
    expect([meta.icc, meta.exif, meta.density]).toEqual([undefined, undefined, 96]);
    const { source } = await conditionUpload(await upload(photo, 'image/jpeg'));
    // What the model makes of it matters not here (a small stand-in keeps the test quick).
    const made = await model(await upload(await rawPng(halves())));
    for (const format of OUTPUT_FORMATS) {
      const out = await finishResultImage(made, { format }, source);
      const tags = await colourTagsOf(out.bytes);
      expect(tags.profile, format).toMatch(/sRGB/);
      if (format === 'avif') expect(tags.colr.length).toBeGreaterThan(0);
      // The density is written as EXIF in every format but WebP (the model's own file, no EXIF added).
      expect(tags.exifColorSpace, format).toBe(format === 'webp' ? undefined : EXIF_COLOR_SPACE_SRGB);
    }
  });

  it('an untagged PNG without any metadata, in each format: no EXIF is added to say it', async () => {
    for (const format of OUTPUT_FORMATS) {
      const out = await throughTool(await rawPng(halves()), { format });
      await expectSrgbResult(out.bytes, format, false);
    }
  });

  it.each(['png', 'webp'] as const)(
    'the model’s own %s is tagged without a second encode: the same pixels',
    async (kind) => {
      const { image, source } = await conditionUpload(await upload(await untaggedWithExif('jpeg'), 'image/jpeg'));
      const made = {
        bytes: await (kind === 'png' ? sharp(image.bytes).png() : sharp(image.bytes).webp({ quality: 80 })).toBuffer(),
        contentType: `image/${kind}` as const,
      };
      const out = await finishResultImage(made, {}, source);
      await expectSrgbResult(out.bytes, kind, true);
      const [before, after] = await Promise.all([made.bytes, out.bytes].map((bytes) => sharp(bytes).raw().toBuffer()));
      expect(after?.equals(before as Buffer)).toBe(true);
    },
  );

  it('the model’s own JPEG, with nothing else to carry, is tagged without a second encode', async () => {
    const { image, source } = await conditionUpload(await upload(await rawPng(halves())));
    const made = {
      bytes: await sharp(image.bytes).jpeg({ quality: 80 }).toBuffer(),
      contentType: 'image/jpeg' as const,
    };
    const out = await finishResultImage(made, {}, source);
    await expectSrgbResult(out.bytes, 'jpeg', false);
    const [before, after] = await Promise.all(
      [made.bytes, out.bytes].map((bytes) => sharp(bytes, { ignoreIcc: true }).raw().toBuffer()),
    );
    expect(after?.equals(before as Buffer)).toBe(true);
  });

  it('a grey result is made RGB to carry its sRGB profile', async () => {
    const grey = await sharp(await rawPng(halves()))
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const { source } = await conditionUpload(await upload(await rawPng(halves())));
    const out = await finishResultImage({ bytes: grey, contentType: 'image/png' }, {}, source);
    expect((await sharp(out.bytes).metadata()).channels).toBe(3);
    expect((await colourTagsOf(out.bytes)).profile).toMatch(/sRGB/);
  });

  it('a result with no upload (a prompt’s picture) is tagged sRGB too', async () => {
    const made = { bytes: await rawPng(halves()), contentType: 'image/png' as const };
    for (const format of OUTPUT_FORMATS)
      await expectSrgbResult((await finishResultImage(made, { format }, null)).bytes, format, false);
  });

  it.each(OUTPUT_FORMATS)(
    'a stored file without a profile, converted to %s at download, is tagged sRGB',
    async (format) => {
      const stored = await rawPng(halves());
      await expectSrgbResult(await convertedFile(stored, format, { timeoutSeconds: 30 }), format, true);
    },
  );
});

describe('orientation: applied once, never twice', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('EXIF orientation %i', async (orientation) => {
    const input = await sharp(await rawPng(halves()))
      .withMetadata({ orientation })
      .jpeg({ quality: 98 })
      .toBuffer();
    const upright = await sharp(input).autoOrient().raw().toBuffer({ resolveWithObject: true });
    const out = await throughTool(input, { format: 'png' }, 'image/jpeg');
    const meta = await sharp(out.bytes).metadata();
    expect([undefined, 1]).toContain(meta.orientation);
    expect(meta.width).toBe(upright.info.width * 2);
    expect(meta.height).toBe(upright.info.height * 2);
    // The displayed result matches the displayed upload, corner by corner.
    const shown = await sharp(out.bytes).autoOrient().raw().toBuffer({ resolveWithObject: true });
    for (const [x, y] of [
      [1, 1],
      [upright.info.width - 2, upright.info.height - 2],
    ] as const) {
      const want = [...upright.data.subarray((y * upright.info.width + x) * 3, (y * upright.info.width + x) * 3 + 3)];
      const at = (y * 2 * shown.info.width + x * 2) * shown.info.channels;
      near([...shown.data.subarray(at, at + 3)], want, 12);
    }
  });
});

describe('metadata: camera, copyright and DPI kept; the GPS position only on request', () => {
  const withExif = async () =>
    sharp(await rawPng(halves()))
      .withExif({
        IFD0: { Make: 'Canon', Model: 'EOS R5', Copyright: 'Jane Doe 2026', Artist: 'Jane Doe' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .withMetadata({ orientation: 6, density: 300 })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
          '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="51,30.0N">' +
          '<dc:rights>Jane Doe 2026</dc:rights><exif:GPSLongitude>0,7.0W</exif:GPSLongitude></rdf:Description></rdf:RDF></x:xmpmeta>',
      )
      .jpeg({ quality: 95 })
      .toBuffer();

  it.each(OUTPUT_FORMATS)('%s: no GPS by default, camera and copyright kept, upright', async (format) => {
    const input = await withExif();
    expect(exifHasLocation((await sharp(input).metadata()).exif as Buffer)).toBe(true);
    const out = await throughTool(input, { format }, 'image/jpeg');
    const meta = await sharp(out.bytes).metadata();
    const exif = meta.exif as Buffer;
    expect(exif).toBeDefined();
    expect(exifHasLocation(exif)).toBe(false);
    expect(exif.includes('Jane Doe 2026')).toBe(true);
    expect(exif.includes('EOS R5')).toBe(true);
    expect(exif.includes('51/1')).toBe(false);
    expect(meta.xmpAsString).toContain('Jane Doe 2026');
    expect(meta.xmpAsString).not.toContain('GPS');
    if (format === 'png' || format === 'jpeg') expect(meta.density).toBe(300);
  });

  it('keeps the GPS position when the user opts in', async () => {
    const out = await throughTool(await withExif(), { format: 'jpeg', keepLocation: true }, 'image/jpeg');
    const meta = await sharp(out.bytes).metadata();
    expect(exifHasLocation(meta.exif as Buffer)).toBe(true);
    expect(meta.xmpAsString).toContain('GPSLatitude');
  });

  it.each(['png', 'webp'] as const)(
    'the model’s own %s gets it all without a second encode: the same pixels',
    async (kind) => {
      const { image, source } = await conditionUpload(await upload(await withExif(), 'image/jpeg'));
      const pipeline = sharp(image.bytes).resize(image.width * 2, image.height * 2);
      const made = {
        bytes: await (kind === 'png' ? pipeline.png() : pipeline.webp({ quality: 80 })).toBuffer(),
        contentType: `image/${kind}` as const,
      };
      const out = await finishResultImage(made, {}, source);
      const [before, after] = await Promise.all(
        [made.bytes, out.bytes].map((bytes) => sharp(bytes, { ignoreIcc: true }).raw().toBuffer()),
      );
      expect(after?.equals(before as Buffer)).toBe(true);
      const meta = await sharp(out.bytes).metadata();
      expect(exifHasLocation(meta.exif as Buffer)).toBe(false);
      expect(meta.exif?.includes('Jane Doe 2026')).toBe(true);
      expect(meta.xmpAsString).toContain('Jane Doe 2026');
      expect([undefined, 1]).toContain(meta.orientation);
      if (kind === 'png') expect(meta.density).toBe(300);
    },
  );

  it('reads past a broken EXIF block without keeping it', () => {
    expect(exifForResult(Buffer.from('Exif\0\0garbage'), { keepLocation: false, srgb: true })).toBeNull();
    expect(xmpForResult('<a exif:GPSAltitude="1"/>', false)).toBe('<a/>');
  });
});

describe('formats', () => {
  it.each(OUTPUT_FORMATS)('%s: decodes as that format; transparency kept where the format can', async (format) => {
    const transparent = await rawPng(halves(4, 0), 4);
    const out = await throughTool(transparent, { format });
    const meta = await sharp(out.bytes).metadata();
    expect(meta.format === 'heif' ? 'avif' : meta.format === 'jpeg' ? 'jpeg' : meta.format).toBe(format);
    const right = await pixel(out.bytes, 90, 4);
    if (format === 'jpeg') {
      expect(meta.hasAlpha).toBe(false);
      near(right, [255, 255, 255], 6); // what is left transparent lies on white
    } else {
      expect(meta.hasAlpha).toBe(true);
      expect(right[3]).toBeLessThan(10);
    }
  });

  it('quality is the lossy formats’ own: a lower quality makes a smaller file', async () => {
    const photo = await sharp({
      create: {
        width: 200,
        height: 200,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const high = await throughTool(photo, { format: 'jpeg', quality: 95 });
    const low = await throughTool(photo, { format: 'jpeg', quality: 30 });
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
  });

  it('converts a stored file for the download, keeping its profile, and refuses a transparent one as JPEG', async () => {
    const icc = await p3Profile();
    const stored = (await throughTool(await tagged(icc), { format: 'png' })).bytes;
    const asAvif = await convertedFile(stored, 'avif', { timeoutSeconds: 30 });
    expect((await sharp(asAvif).metadata()).icc?.equals(icc)).toBe(true);
    near(await pixel(asAvif, 4, 4), [255, 0, 0], 6);
    const cutOut = await rawPng(halves(4, 0), 4);
    await expect(convertedFile(cutOut, 'jpeg', { timeoutSeconds: 30 })).rejects.toBeInstanceOf(TransparentAsJpegError);
    const opaque = await rawPng(halves(4, 255), 4);
    expect((await sharp(await convertedFile(opaque, 'jpeg', { timeoutSeconds: 30 })).metadata()).format).toBe('jpeg');
  });
});

describe('cut-out finishing', () => {
  /** A 200x100 transparent picture with a 40x60 opaque blue subject at (30, 20). */
  const cutOut = () =>
    sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([
        { input: { create: { width: 40, height: 60, channels: 4, background: '#2040c0' } }, left: 30, top: 20 },
      ])
      .png()
      .toBuffer();
  const finish = async (options: ResultFileOptions['cutOut'], format: ResultFileOptions['format'] = 'png') =>
    finishResultImage({ bytes: await cutOut(), contentType: 'image/png' }, { format, cutOut: options }, null);

  it('a background colour fills what was transparent', async () => {
    const out = await finish({ background: '#ffffff' }, 'jpeg');
    expect((await sharp(out.bytes).metadata()).hasAlpha).toBe(false);
    near(await pixel(out.bytes, 2, 2), [255, 255, 255]);
    near(await pixel(out.bytes, 50, 50), [0x20, 0x40, 0xc0], 8);
  });

  it('crop: the subject with its margin (percent of its longer side), still transparent around it', async () => {
    const out = await finish({ crop: 10 });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([40 + 12, 60 + 12]);
    expect((await pixel(out.bytes, 1, 1))[3]).toBe(0);
    expect((await pixel(out.bytes, 26, 36))[3]).toBe(255);
  });

  it('a margin past the picture’s edge is transparent room, not an error', async () => {
    const out = await finish({ crop: 50 });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([40 + 60, 60 + 60]);
  });

  it('size: a square of N px with the subject centred', async () => {
    const out = await finish({ size: 400, background: '#ffffff' });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([400, 400]);
    near(await pixel(out.bytes, 200, 200), [0x20, 0x40, 0xc0], 8);
    near(await pixel(out.bytes, 100, 5), [255, 255, 255]);
    near(await pixel(out.bytes, 300, 395), [255, 255, 255]);
    // Centred: as much white left of the subject as right of it.
    const row = await sharp(out.bytes).extract({ left: 0, top: 200, width: 400, height: 1 }).raw().toBuffer();
    const blue = [...Array(400).keys()].filter((x) => (row[x * 3 + 2] ?? 0) > 150 && (row[x * 3] ?? 0) < 100);
    expect(Math.abs((blue[0] ?? 0) - (399 - (blue.at(-1) ?? 0)))).toBeLessThanOrEqual(2);
  });

  it('shadow: a soft shade under the subject, on white or transparent', async () => {
    const onWhite = await finish({ crop: 20, shadow: true, background: '#ffffff' });
    const meta = await sharp(onWhite.bytes).metadata();
    // Just under the subject's base, in the middle: darker than the white around it.
    const under = await pixel(onWhite.bytes, Math.round((meta.width ?? 0) / 2), 12 + 60 + 2);
    expect(under[0]).toBeLessThan(235);
    near(await pixel(onWhite.bytes, 1, 1), [255, 255, 255]);
    const onClear = await finish({ crop: 20, shadow: true });
    const alpha = (await pixel(onClear.bytes, Math.round((meta.width ?? 0) / 2), 12 + 60 + 2))[3] ?? 0;
    expect(alpha).toBeGreaterThan(10);
    expect(alpha).toBeLessThan(200);
  });

  it('an empty cut-out (no subject) is finished whole, not refused', async () => {
    const empty = await sharp({
      create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const out = await finishResultImage(
      { bytes: empty, contentType: 'image/png' },
      { cutOut: { crop: 5, size: 100, background: '#ffffff' } },
      null,
    );
    const meta = await sharp(out.bytes).metadata();
    expect(meta.format).toBe('png');
  });
});
