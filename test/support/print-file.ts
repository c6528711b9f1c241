// What a result file says of its print size (issue 58 item 4, decision 081), read from the file as
// a viewer reads it: for the integration and browser tests of Image Upscaler's print sizes.
import sharp from 'sharp';
import { exifResolution, jfifDensity } from '../../src/server/images/finishing/embedded-metadata';

/** The file's format and pixels, and its DPI: sharp's reading (JFIF, EXIF or pHYs), the EXIF's, and a JPEG's JFIF header. */
export async function printFacts(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return {
    format: meta.format,
    size: [meta.width, meta.height],
    density: meta.density,
    exif: meta.exif ? exifResolution(meta.exif) : null,
    jfif: meta.format === 'jpeg' ? jfifDensity(bytes) : undefined,
  };
}

/** printFacts of a JPEG of `size` pixels with `dpi` written everywhere a viewer reads it. */
export const jpegPrint = (size: readonly number[], dpi: number) => ({
  format: 'jpeg',
  size,
  density: dpi,
  exif: { x: dpi, y: dpi },
  jfif: dpi,
});
