// The bytes of a photo's metadata that a result keeps (issue 41, decision 063): its EXIF, with the GPS
// position removed unless the user keeps it, the orientation set upright (the pixels already are:
// applied once, never twice), the embedded thumbnail of the original dropped and its ColorSpace set
// to sRGB when the result is tagged sRGB (issue 54); its XMP, with GPS
// properties removed the same way; and the way both and the ICC profile are attached to a PNG
// without touching its numbers (sharp's keepIccProfile/keepExif then carry them to any format).
// Byte work on a few kilobytes: cheap on any thread.
import { crc32, deflateSync } from 'node:zlib';

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

const TAG_ORIENTATION = 0x0112;
const TAG_GPS_IFD = 0x8825;
const TAG_EXIF_IFD = 0x8769;
const TAG_COLOR_SPACE = 0xa001;
/** EXIF ColorSpace 1 is sRGB; the only other value, 0xFFFF, is "Uncalibrated". */
export const EXIF_COLOR_SPACE_SRGB = 1;
const TAG_THUMBNAIL_OFFSET = 0x0201;
const TAG_THUMBNAIL_LENGTH = 0x0202;
const TYPE_SHORT = 3;
/** Bytes per value of each TIFF field type (1 BYTE ... 12 DOUBLE). */
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

type Tiff = {
  bytes: Buffer;
  u16: (at: number) => number;
  u32: (at: number) => number;
  setU16: (at: number, value: number) => void;
  setU32: (at: number, value: number) => void;
};

function tiffOf(bytes: Buffer): Tiff | null {
  const order = bytes.toString('latin1', 0, 2);
  if (bytes.length < 8 || (order !== 'II' && order !== 'MM')) return null;
  const le = order === 'II';
  return {
    bytes,
    u16: (at) => (le ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at)),
    u32: (at) => (le ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at)),
    setU16: (at, value) => (le ? bytes.writeUInt16LE(value, at) : bytes.writeUInt16BE(value, at)),
    setU32: (at, value) => (le ? bytes.writeUInt32LE(value, at) : bytes.writeUInt32BE(value, at)),
  };
}

type Entry = { at: number; tag: number; type: number; count: number; value: number };

function entriesOf(tiff: Tiff, ifd: number): Entry[] | null {
  if (ifd + 2 > tiff.bytes.length) return null;
  const count = tiff.u16(ifd);
  if (ifd + 2 + count * 12 + 4 > tiff.bytes.length) return null;
  return Array.from({ length: count }, (_, i) => {
    const at = ifd + 2 + i * 12;
    return { at, tag: tiff.u16(at), type: tiff.u16(at + 2), count: tiff.u32(at + 4), value: tiff.u32(at + 8) };
  });
}

/** Zeroes an IFD's entries and the values they point at (what a GPS position is made of). */
function eraseIfd(tiff: Tiff, ifd: number): void {
  for (const entry of entriesOf(tiff, ifd) ?? []) {
    const size = (TYPE_SIZES[entry.type] ?? 1) * entry.count;
    if (size > 4 && entry.value + size <= tiff.bytes.length) tiff.bytes.fill(0, entry.value, entry.value + size);
    tiff.bytes.fill(0, entry.at, entry.at + 12);
  }
}

/** The TIFF structure of an EXIF block, with or without its "Exif\0\0" header (a copy: safe to change). */
function tiffOfExif(exif: Buffer): Tiff | null {
  const start = exif.subarray(0, 6).equals(EXIF_HEADER) ? 6 : 0;
  return tiffOf(Buffer.from(exif.subarray(start)));
}

/** The ColorSpace entry (a SHORT), in the Exif IFD that IFD0 points to; undefined when there is none. */
function colorSpaceEntry(tiff: Tiff): Entry | undefined {
  const exifIfd = entriesOf(tiff, tiff.u32(4))?.find((entry) => entry.tag === TAG_EXIF_IFD);
  const entries = exifIfd ? entriesOf(tiff, exifIfd.value) : null;
  return entries?.find((entry) => entry.tag === TAG_COLOR_SPACE && entry.type === TYPE_SHORT);
}

/** What the EXIF's ColorSpace says (1 sRGB, 0xFFFF Uncalibrated); undefined when it says nothing. */
export function exifColorSpace(exif: Buffer): number | undefined {
  const tiff = tiffOfExif(exif);
  const entry = tiff ? colorSpaceEntry(tiff) : undefined;
  return tiff && entry ? tiff.u16(entry.at + 8) : undefined;
}

/**
 * A photo's EXIF (as sharp's metadata gives it: "Exif\0\0" and a TIFF structure) made fit for a
 * result: orientation 1, no thumbnail, no GPS position unless `keepLocation`, and ColorSpace sRGB
 * when the result is tagged sRGB (`srgb`: an untagged upload's "Uncalibrated" would contradict its
 * result's profile). Answers the TIFF bytes (what a PNG's eXIf chunk holds), or null when the block
 * cannot be read (then none is kept).
 */
export function exifForResult(
  exif: Buffer,
  { keepLocation, srgb }: { keepLocation: boolean; srgb: boolean },
): Buffer | null {
  const tiff = tiffOfExif(exif);
  if (!tiff) return null;
  const ifd0 = tiff.u32(4);
  const entries = entriesOf(tiff, ifd0);
  if (!entries) return null;
  const nextAt = ifd0 + 2 + entries.length * 12;
  const ifd1 = tiff.u32(nextAt);
  // The thumbnail shows the original (its background, its old orientation): dropped with IFD1.
  if (ifd1) {
    const thumbnail = entriesOf(tiff, ifd1) ?? [];
    const offset = thumbnail.find((e) => e.tag === TAG_THUMBNAIL_OFFSET)?.value ?? 0;
    const length = thumbnail.find((e) => e.tag === TAG_THUMBNAIL_LENGTH)?.value ?? 0;
    if (offset && offset + length <= tiff.bytes.length) tiff.bytes.fill(0, offset, offset + length);
    eraseIfd(tiff, ifd1);
  }
  const kept = entries.filter((entry) => keepLocation || entry.tag !== TAG_GPS_IFD);
  const gps = entries.find((entry) => entry.tag === TAG_GPS_IFD);
  if (gps && !keepLocation) eraseIfd(tiff, gps.value);
  // IFD0 written again in place: the kept entries, then no next IFD; the rest of its old room zeroed.
  const rows = kept.map((entry) => Buffer.from(tiff.bytes.subarray(entry.at, entry.at + 12)));
  tiff.setU16(ifd0, rows.length);
  rows.forEach((row, i) => {
    row.copy(tiff.bytes, ifd0 + 2 + i * 12);
  });
  const end = ifd0 + 2 + rows.length * 12;
  tiff.setU32(end, 0);
  tiff.bytes.fill(0, end + 4, nextAt + 4);
  for (let i = 0; i < rows.length; i++) {
    const at = ifd0 + 2 + i * 12;
    if (tiff.u16(at) === TAG_ORIENTATION) tiff.setU16(at + 8, 1);
  }
  // A SHORT's value sits in the entry's first two value bytes.
  const colorSpace = srgb ? colorSpaceEntry(tiff) : undefined;
  if (colorSpace) tiff.setU16(colorSpace.at + 8, EXIF_COLOR_SPACE_SRGB);
  return tiff.bytes;
}

/** Whether the EXIF holds a GPS position (an IFD0 pointer to the GPS IFD with entries). */
export function exifHasLocation(exif: Buffer): boolean {
  const tiff = tiffOfExif(exif);
  if (!tiff) return false;
  const gps = entriesOf(tiff, tiff.u32(4))?.find((entry) => entry.tag === TAG_GPS_IFD);
  return gps ? (entriesOf(tiff, gps.value)?.length ?? 0) > 0 : false;
}

/** XMP without its GPS properties (attribute and element forms), unless `keepLocation`. */
export function xmpForResult(xmp: string, keepLocation: boolean): string {
  if (keepLocation) return xmp;
  return xmp
    .replace(/\s(?:exif|exifEX):GPS\w+="[^"]*"/g, '')
    .replace(/<((?:exif|exifEX):GPS\w+)\b[^>]*\/>/g, '')
    .replace(/<((?:exif|exifEX):GPS\w+)\b[^>]*>[\s\S]*?<\/\1>/g, '');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks that describe colour or metadata: replaced by what is attached. */
const REPLACED_PNG_CHUNKS = new Set(['iCCP', 'sRGB', 'gAMA', 'cHRM', 'eXIf', 'pHYs']);
const XMP_KEYWORD = 'XML:com.adobe.xmp';

/** What a result carries from its upload, as bytes ready to attach. */
export type AttachedMetadata = { icc?: Buffer; exif?: Buffer; xmp?: string; density?: number };

const isXmpChunk = (png: Buffer, at: number) =>
  png.toString('latin1', at + 4, at + 8) === 'iTXt' &&
  png.toString('latin1', at + 8, at + 8 + XMP_KEYWORD.length) === XMP_KEYWORD;

/**
 * A PNG with the metadata attached after its header (iCCP, eXIf of TIFF bytes, pHYs, the XMP as
 * iTXt), its own colour, EXIF, density and XMP chunks removed: the numbers stay as they are and mean
 * what `icc` says. No pixel is decoded.
 */
export function pngWithMetadata(png: Buffer, { icc, exif, xmp, density }: AttachedMetadata): Buffer {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  const chunks: Buffer[] = [];
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    const replaced = REPLACED_PNG_CHUNKS.has(type) || (xmp !== undefined && isXmpChunk(png, at));
    if (!replaced) chunks.push(png.subarray(at, end));
    if (type === 'IHDR') {
      if (icc) chunks.push(pngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), deflateSync(icc)])));
      if (exif) chunks.push(pngChunk('eXIf', exif));
      if (density) {
        const perMetre = Math.round(density / 0.0254);
        const phys = Buffer.alloc(9);
        phys.writeUInt32BE(perMetre, 0);
        phys.writeUInt32BE(perMetre, 4);
        phys[8] = 1;
        chunks.push(pngChunk('pHYs', phys));
      }
      if (xmp)
        chunks.push(
          pngChunk(
            'iTXt',
            Buffer.concat([Buffer.from(`${XMP_KEYWORD}\0\0\0\0\0`, 'latin1'), Buffer.from(xmp, 'utf8')]),
          ),
        );
    }
    at = end;
  }
  return Buffer.concat([PNG_SIGNATURE, ...chunks]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

const VP8X_ICC = 0x20;
const VP8X_ALPHA = 0x10;
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/**
 * A still WebP with the metadata attached (an extended file: VP8X, ICCP, the image's own chunks,
 * EXIF, XMP), its own ICCP/EXIF/XMP replaced. WebP has no density. No pixel is decoded; null when the
 * file is not a still WebP this can read (the caller then encodes).
 */
export function webpWithMetadata(webp: Buffer, { icc, exif, xmp }: AttachedMetadata): Buffer | null {
  if (webp.length < 30 || webp.toString('latin1', 0, 4) !== 'RIFF' || webp.toString('latin1', 8, 12) !== 'WEBP')
    return null;
  const image: Buffer[] = [];
  let width = 0;
  let height = 0;
  let alpha = false;
  for (let at = 12; at + 8 <= webp.length; ) {
    const type = webp.toString('latin1', at, at + 4);
    const size = webp.readUInt32LE(at + 4);
    const data = webp.subarray(at + 8, at + 8 + size);
    if (type === 'VP8X') {
      if ((data[0] ?? 0) & 0x02) return null; // animated
      alpha = ((data[0] ?? 0) & VP8X_ALPHA) !== 0;
      width = data.readUIntLE(4, 3) + 1;
      height = data.readUIntLE(7, 3) + 1;
    } else if (type === 'VP8 ') {
      image.push(riffChunk(type, data));
      if (!width) {
        width = data.readUInt16LE(6) & 0x3fff;
        height = data.readUInt16LE(8) & 0x3fff;
      }
    } else if (type === 'VP8L') {
      image.push(riffChunk(type, data));
      if (!width) {
        const bits = data.readUInt32LE(1);
        width = (bits & 0x3fff) + 1;
        height = ((bits >> 14) & 0x3fff) + 1;
        alpha = ((bits >> 28) & 1) === 1;
      }
    } else if (type === 'ALPH') {
      image.push(riffChunk(type, data));
      alpha = true;
    } else if (type === 'ANIM' || type === 'ANMF') {
      return null;
    }
    at += 8 + size + (size % 2);
  }
  if (!image.length || !width || !height) return null;
  const header = Buffer.alloc(10);
  header[0] = (icc ? VP8X_ICC : 0) | (alpha ? VP8X_ALPHA : 0) | (exif ? VP8X_EXIF : 0) | (xmp ? VP8X_XMP : 0);
  header.writeUIntLE(width - 1, 4, 3);
  header.writeUIntLE(height - 1, 7, 3);
  const chunks = [
    riffChunk('VP8X', header),
    ...(icc ? [riffChunk('ICCP', icc)] : []),
    ...image,
    ...(exif ? [riffChunk('EXIF', exif)] : []),
    ...(xmp ? [riffChunk('XMP ', Buffer.from(xmp, 'utf8'))] : []),
  ];
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

const ICC_MARKER = Buffer.from('ICC_PROFILE\0', 'latin1');
/** An APP2 segment holds at most this much of a profile (65535 less its length field and header). */
const ICC_CHUNK = 65535 - 2 - ICC_MARKER.length - 2;

/** A profile as the APP2 "ICC_PROFILE" segments a JPEG carries it in (numbered from 1). */
function iccSegments(icc: Buffer): Buffer[] {
  const count = Math.ceil(icc.length / ICC_CHUNK);
  return Array.from({ length: count }, (_, i) => {
    const chunk = icc.subarray(i * ICC_CHUNK, (i + 1) * ICC_CHUNK);
    const head = Buffer.alloc(4);
    head.writeUInt16BE(0xffe2, 0);
    head.writeUInt16BE(2 + ICC_MARKER.length + 2 + chunk.length, 2);
    return Buffer.concat([head, ICC_MARKER, Buffer.from([i + 1, count]), chunk]);
  });
}

/**
 * A JPEG with `icc` as its ICC profile, or without one (`icc` undefined), every other byte as it was:
 * the same pixels, read in the profile given. The profile goes after the JFIF and EXIF segments, which
 * come first. Null when the markers cannot be walked (the caller then re-encodes).
 */
export function jpegWithIcc(jpeg: Buffer, icc: Buffer | undefined): Buffer | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const kept: Buffer[] = [jpeg.subarray(0, 2)];
  let profile = icc ? iccSegments(icc) : [];
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1] ?? 0;
    if (marker !== 0xe0 && marker !== 0xe1) {
      kept.push(...profile);
      profile = [];
    }
    // From the first scan on, the rest is image data: kept whole.
    if (marker === 0xda) return Buffer.concat([...kept, jpeg.subarray(at)]);
    const length = jpeg.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (end > jpeg.length) return null;
    const isIcc = marker === 0xe2 && jpeg.subarray(at + 4, at + 4 + ICC_MARKER.length).equals(ICC_MARKER);
    if (!isIcc) kept.push(jpeg.subarray(at, end));
    at = end;
  }
  return null;
}

const JFIF_ID = Buffer.from('JFIF\0', 'latin1');

/**
 * A JPEG with a JFIF segment saying `dpi` (units 1: dots per inch), first after its start as JFIF
 * requires, in place of any JFIF it had; every other byte as it was. libvips writes the DPI in EXIF
 * only, and some viewers and print drivers read JFIF's. Null when the file does not start as a JPEG.
 */
export function jpegWithJfifDensity(jpeg: Buffer, dpi: number): Buffer | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const density = Math.min(0xffff, Math.max(1, Math.round(dpi)));
  const jfif = Buffer.alloc(18);
  jfif.writeUInt16BE(0xffe0, 0);
  jfif.writeUInt16BE(16, 2);
  JFIF_ID.copy(jfif, 4);
  jfif[9] = 1; // version 1.02
  jfif[10] = 2;
  jfif[11] = 1; // units: dots per inch
  jfif.writeUInt16BE(density, 12);
  jfif.writeUInt16BE(density, 14);
  // No thumbnail (bytes 16 and 17 stay 0).
  const hasJfif = jpeg[2] === 0xff && jpeg[3] === 0xe0 && jpeg.subarray(6, 11).equals(JFIF_ID);
  const rest = hasJfif ? jpeg.subarray(4 + jpeg.readUInt16BE(4)) : jpeg.subarray(2);
  return Buffer.concat([jpeg.subarray(0, 2), jfif, rest]);
}

/** A JPEG's JFIF density in dots per inch (units 1; 2 is per centimetre), or null without a JFIF segment. */
export function jfifDensity(jpeg: Buffer): number | null {
  if (jpeg[2] !== 0xff || jpeg[3] !== 0xe0 || !jpeg.subarray(6, 11).equals(JFIF_ID)) return null;
  const units = jpeg[13];
  const x = jpeg.readUInt16BE(14);
  return units === 1 ? x : units === 2 ? Math.round(x * 2.54) : null;
}

const TAG_X_RESOLUTION = 0x011a;
const TAG_Y_RESOLUTION = 0x011b;
const TAG_RESOLUTION_UNIT = 0x0128;
const TYPE_RATIONAL = 5;

/** What an EXIF block's IFD0 says of the resolution, in dots per inch (unit 2 inch, 3 cm); null when it says none. */
export function exifResolution(exif: Buffer): { x: number; y: number } | null {
  const tiff = tiffOfExif(exif);
  const entries = tiff ? entriesOf(tiff, tiff.u32(4)) : null;
  if (!tiff || !entries) return null;
  const rational = (tag: number) => {
    const entry = entries.find((e) => e.tag === tag && e.type === TYPE_RATIONAL);
    if (!entry || entry.value + 8 > tiff.bytes.length) return null;
    const denominator = tiff.u32(entry.value + 4);
    return denominator ? tiff.u32(entry.value) / denominator : null;
  };
  const unitEntry = entries.find((e) => e.tag === TAG_RESOLUTION_UNIT);
  const perCm = unitEntry !== undefined && tiff.u16(unitEntry.at + 8) === 3;
  const x = rational(TAG_X_RESOLUTION);
  const y = rational(TAG_Y_RESOLUTION);
  if (x === null || y === null) return null;
  return perCm ? { x: x * 2.54, y: y * 2.54 } : { x, y };
}
