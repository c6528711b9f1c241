// An upscale to a size (issue 58 item 4, decision 081): the model's output made the exact size asked
// and the DPI written into each format, read back from the file as a viewer reads it.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, type OutputFormat } from '../../../contract/output-files';
import { exifResolution, jfifDensity } from './embedded-metadata';
import { finishResultImage } from './result-file';
import { readSourcePhoto } from './source-photo';

/** A model's webp output, 2x of a 3:4 photo. */
const modelOutput = async (width = 600, height = 800) => ({
  bytes: await sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } })
    .webp()
    .toBuffer(),
  contentType: 'image/webp' as const,
});

/** What the file says of its DPI: sharp's reading (JFIF, EXIF or pHYs), the EXIF's, and a JPEG's JFIF. */
async function densities(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return {
    density: meta.density,
    exif: meta.exif ? exifResolution(meta.exif) : null,
    jfif: meta.format === 'jpeg' ? jfifDensity(bytes) : undefined,
  };
}

describe('a result made to a print size', () => {
  it.each(OUTPUT_FORMATS)('%s: exactly the print pixels, the DPI written where the format keeps it', async (format) => {
    const finished = await finishResultImage(
      await modelOutput(),
      { format: format as OutputFormat, resize: { short: 413, long: 531 }, density: 300 },
      null,
    );
    const meta = await sharp(finished.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([413, 531]);
    const read = await densities(finished.bytes);
    if (format === 'png') {
      // pHYs, in dots per metre: 11811 is 300 DPI.
      expect(read.density).toBe(300);
    } else {
      expect(read.exif).toEqual({ x: 300, y: 300 });
    }
    if (format === 'jpeg') {
      expect(read.jfif).toBe(300);
      expect(read.density).toBe(300);
    }
  });

  it('a landscape output becomes the landscape print, cropped evenly at the top and bottom', async () => {
    // 8 rows of red at the top and bottom, blue between: covering 701 x 496 enlarges 800 x 600 by
    // 0.876 to 701 x 526 and crops 15 rows from each end, the red (7 rows once scaled) among them.
    const base = sharp({ create: { width: 800, height: 600, channels: 3, background: '#0000ff' } });
    const red = await sharp({ create: { width: 800, height: 8, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const bytes = await base
      .composite([
        { input: red, top: 0, left: 0 },
        { input: red, top: 592, left: 0 },
      ])
      .png()
      .toBuffer();
    const finished = await finishResultImage(
      { bytes, contentType: 'image/png' as const },
      { resize: { short: 496, long: 701 }, density: 60 },
      null,
    );
    const { data, info } = await sharp(finished.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([701, 496]);
    // The first row is blue: the red bands were cropped away.
    expect([data[0], data[1], data[2]]).toEqual([0, 0, 255]);
  });

  it("the DPI asked replaces the upload's own 72", async () => {
    const upload = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#808080' } })
      .withDensity(72)
      .jpeg()
      .toBuffer();
    const source = await readSourcePhoto({ bytes: upload, mime: 'image/jpeg', width: 300, height: 400 });
    expect(source.density).toBe(72);
    const finished = await finishResultImage(
      await modelOutput(),
      { format: 'jpeg', resize: { width: 500 }, density: 300 },
      source,
    );
    expect(await densities(finished.bytes)).toEqual({ density: 300, exif: { x: 300, y: 300 }, jfif: 300 });
    expect((await sharp(finished.bytes).metadata()).width).toBe(500);
  });

  it('a width asked: that width, the height from the aspect, and no DPI of its own', async () => {
    const finished = await finishResultImage(await modelOutput(600, 800), { resize: { width: 450 } }, null);
    const meta = await sharp(finished.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 450, 600]);
  });
});
