// What an image file says about its colours, as a reader other than sharp would find it (issue 54:
// an untagged upload's AVIF came back with no `colr` box and EXIF ColorSpace "Uncalibrated"): its ICC
// profile's description, an AVIF's `colr` boxes, and its EXIF ColorSpace.
import sharp from 'sharp';
import { exifColorSpace } from '../../src/server/images/finishing/embedded-metadata';
import { profileDescription } from './icc-profiles';

/** The colour types ('nclx', 'prof', 'rICC') of the `colr` boxes in an AVIF's item properties (meta > iprp > ipco). */
export function avifColourBoxes(file: Buffer): string[] {
  const found: string[] = [];
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end; ) {
      const size32 = file.readUInt32BE(at);
      const type = file.toString('latin1', at + 4, at + 8);
      const size = size32 === 1 ? Number(file.readBigUInt64BE(at + 8)) : size32 === 0 ? end - at : size32;
      if (size < 8) return;
      if (type === 'colr') found.push(file.toString('latin1', at + 8, at + 12));
      // meta is a full box: its children start after a version and flags.
      if (type === 'meta') walk(at + 12, at + size);
      if (type === 'iprp' || type === 'ipco') walk(at + 8, at + size);
      at += size;
    }
  };
  walk(0, file.length);
  return found;
}

/** The profile's description (null: no profile), the AVIF `colr` boxes, and the EXIF ColorSpace (undefined: no EXIF or none said). */
export async function colourTagsOf(file: Buffer) {
  const meta = await sharp(file).metadata();
  return {
    profile: meta.icc ? profileDescription(meta.icc) : null,
    colr: meta.format === 'heif' ? avifColourBoxes(file) : [],
    exifColorSpace: meta.exif ? exifColorSpace(meta.exif) : undefined,
  };
}
