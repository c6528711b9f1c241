// ICC profiles for tests and bench/colour (issue 41: a photo tagged Display P3 or Adobe RGB comes back
// looking the same). sharp knows sRGB, Display P3 ('p3') and CMYK by name but has no Adobe RGB, so
// one is built here: an ICC v2 RGB display profile with the primaries, white and gamma of Adobe RGB
// (1998) (Adobe's specification, section 4), its colorants adapted to the D50 PCS with Bradford as
// ICC.1 annex E asks, laid out as Adobe's own profile is (a D65 media white, a one-number curve).
// Also: attaching a profile to a PNG without converting its numbers (sharp's withIccProfile
// converts), reading a profile's description, and a matrix/TRC profile's colours as linear sRGB
// unclipped (sharp's conversion to 8-bit sRGB clips what lies outside sRGB).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Vector = [number, number, number];
type Matrix = [Vector, Vector, Vector];

/** Adobe RGB (1998): primaries and white as CIE xy, and the gamma 563/256 (2.19921875). */
const PRIMARIES = { red: [0.64, 0.33], green: [0.21, 0.71], blue: [0.15, 0.06] } as const;
const D65_XY = [0.3127, 0.329] as const;
const GAMMA_U8F8 = 563; // u8Fixed8Number: 563 / 256
/** The PCS illuminant, D50, as ICC.1 states it (the header's illuminant). */
const D50: Vector = [0.9642, 1, 0.8249];
const BRADFORD: Matrix = [
  [0.8951, 0.2664, -0.1614],
  [-0.7502, 1.7135, 0.0367],
  [0.0389, -0.0685, 1.0296],
];

const xyToXYZ = ([x, y]: readonly [number, number]): Vector => [x / y, 1, (1 - x - y) / y];
type Index = 0 | 1 | 2;
function multiply(a: Matrix, b: Matrix): Matrix {
  const cell = (i: Index, j: Index) => a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return [
    [cell(0, 0), cell(0, 1), cell(0, 2)],
    [cell(1, 0), cell(1, 1), cell(1, 2)],
    [cell(2, 0), cell(2, 1), cell(2, 2)],
  ];
}
const apply = (m: Matrix, v: Vector): Vector => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as Vector;
function invert(m: Matrix): Matrix {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}
const diagonal = (v: Vector): Matrix => [
  [v[0], 0, 0],
  [0, v[1], 0],
  [0, 0, v[2]],
];

/**
 * Linear Adobe RGB to XYZ relative to D50: the D65 matrix from the primaries (each primary scaled
 * so that the three sum to the white), then Bradford from D65 to D50. Columns: red, green, blue.
 */
export function adobeRgbToD50(): Matrix {
  const white = xyToXYZ(D65_XY);
  const primaries = [PRIMARIES.red, PRIMARIES.green, PRIMARIES.blue].map(xyToXYZ);
  const unscaled = [0, 1, 2].map((row) => primaries.map((p) => p[row] as number)) as Matrix;
  const scale = apply(invert(unscaled), white);
  const toD65 = unscaled.map((row) => row.map((value, column) => value * (scale[column] as number))) as Matrix;
  const [source, target] = [apply(BRADFORD, white), apply(BRADFORD, D50)];
  const adapt = multiply(
    invert(BRADFORD),
    multiply(diagonal([target[0] / source[0], target[1] / source[1], target[2] / source[2]]), BRADFORD),
  );
  return multiply(adapt, toD65);
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const s15Fixed16 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(Math.round(value * 65536));
  return bytes;
};
const xyzTag = (xyz: Vector) => Buffer.concat([ascii('XYZ '), Buffer.alloc(4), ...xyz.map(s15Fixed16)]);
/** textDescriptionType (ICC.1:2001-04 6.5.17): the ASCII part, no Unicode, an empty ScriptCode part. */
function descTag(text: string): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(text.length + 1);
  // Unicode language and count (0, 0), ScriptCode code and count (0, 0) and its 67 bytes.
  return Buffer.concat([ascii('desc'), Buffer.alloc(4), count, ascii(text), Buffer.alloc(1), Buffer.alloc(8 + 3 + 67)]);
}
const textTag = (text: string) => Buffer.concat([ascii('text'), Buffer.alloc(4), ascii(text), Buffer.alloc(1)]);
/** curveType with one entry: a pure gamma (u8Fixed8Number). */
function curvTag(gammaU8F8: number): Buffer {
  const bytes = Buffer.concat([ascii('curv'), Buffer.alloc(4), Buffer.alloc(4), Buffer.alloc(2)]);
  bytes.writeUInt32BE(1, 8);
  bytes.writeUInt16BE(gammaU8F8, 12);
  return bytes;
}

export const ADOBE_RGB_DESCRIPTION = 'Adobe RGB (1998) compatible';

/** Builds an ICC v2.1 display profile of `tags` (signature, data); tags of equal data share it. */
function iccProfile(tags: [string, Buffer][]): Buffer {
  const headerAndTable = 128 + 4 + 12 * tags.length;
  const table = Buffer.alloc(4 + 12 * tags.length);
  table.writeUInt32BE(tags.length);
  const blocks: Buffer[] = [];
  const placed = new Map<string, { offset: number; size: number }>();
  let offset = headerAndTable;
  tags.forEach(([signature, data], i) => {
    const key = data.toString('hex');
    let place = placed.get(key);
    if (!place) {
      place = { offset, size: data.length };
      placed.set(key, place);
      // Each tag's data starts on a 4-byte boundary (ICC.1 7.3.1).
      const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
      blocks.push(padded);
      offset += padded.length;
    }
    table.write(signature, 4 + 12 * i, 'latin1');
    table.writeUInt32BE(place.offset, 8 + 12 * i);
    table.writeUInt32BE(place.size, 12 + 12 * i);
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0); // profile size
  header.writeUInt32BE(0x02100000, 8); // version 2.1.0
  header.write('mntr', 12, 'latin1'); // display device
  header.write('RGB ', 16, 'latin1');
  header.write('XYZ ', 20, 'latin1'); // the PCS
  // Creation date and time, fixed so that the bytes are the same every run: 2024-01-01 00:00:00.
  [2024, 1, 1, 0, 0, 0].forEach((value, i) => {
    header.writeUInt16BE(value, 24 + 2 * i);
  });
  header.write('acsp', 36, 'latin1');
  header.writeUInt32BE(0, 64); // rendering intent: perceptual
  D50.forEach((value, i) => {
    s15Fixed16(value).copy(header, 68 + 4 * i);
  });
  return Buffer.concat([header, table, ...blocks]);
}

let adobeRgb: Buffer | undefined;

/** An ICC v2 display profile compatible with Adobe RGB (1998) (Adobe's own profile is not free to copy). */
export function adobeRgbProfile(): Buffer {
  if (!adobeRgb) {
    const matrix = adobeRgbToD50();
    const column = (j: Index): Vector => [matrix[0][j], matrix[1][j], matrix[2][j]];
    adobeRgb = iccProfile([
      ['desc', descTag(ADOBE_RGB_DESCRIPTION)],
      ['cprt', textTag('No copyright, use freely')],
      // A v2 display profile's media white is the display's (Adobe's profile has D65 here); lcms, as
      // ICC.1:2001 says for display profiles, takes D50 as the media white whatever this says.
      ['wtpt', xyzTag(xyToXYZ(D65_XY))],
      ['rXYZ', xyzTag(column(0))],
      ['gXYZ', xyzTag(column(1))],
      ['bXYZ', xyzTag(column(2))],
      ['rTRC', curvTag(GAMMA_U8F8)],
      ['gTRC', curvTag(GAMMA_U8F8)],
      ['bTRC', curvTag(GAMMA_U8F8)],
    ]);
  }
  return adobeRgb;
}

/**
 * The profile written once to a temporary file, its absolute path: sharp's withIccProfile takes a
 * path (or a built-in name), not bytes. Named by its content, so runs and processes share one file.
 */
export function adobeRgbProfilePath(): string {
  const bytes = adobeRgbProfile();
  const dir = path.join(os.tmpdir(), 'picture-palette-icc');
  const file = path.join(
    dir,
    `adobe-rgb-compatible-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.icc`,
  );
  mkdirSync(dir, { recursive: true });
  // Written whole each call (tiny): a half-written file from a killed process is never trusted.
  writeFileSync(file, bytes);
  return file;
}

/**
 * A profile's description: its `desc` tag, as v2 (textDescriptionType) or v4 (multiLocalizedUnicodeType,
 * the first record) writes it; null when it has none that can be read.
 */
export function profileDescription(icc: Buffer): string | null {
  if (icc.length < 132) return null;
  const count = icc.readUInt32BE(128);
  for (let i = 0; i < count && 144 + 12 * i <= icc.length; i++) {
    const entry = 132 + 12 * i;
    if (icc.toString('latin1', entry, entry + 4) !== 'desc') continue;
    const offset = icc.readUInt32BE(entry + 4);
    const size = icc.readUInt32BE(entry + 8);
    const tag = icc.subarray(offset, offset + size);
    const type = tag.toString('latin1', 0, 4);
    if (type === 'desc' && tag.length >= 12) {
      const length = tag.readUInt32BE(8);
      return tag.toString('latin1', 12, 12 + length).replace(/\0.*$/s, '');
    }
    if (type === 'mluc' && tag.length >= 28) {
      const [length, start] = [tag.readUInt32BE(20), tag.readUInt32BE(24)];
      return Buffer.from(tag.subarray(start, start + length))
        .swap16()
        .toString('utf16le');
    }
    return null;
  }
  return null;
}

const readS15Fixed16 = (bytes: Buffer, at: number) => bytes.readInt32BE(at) / 65536;

/** The tags of a profile: signature -> its data. */
function tagsOf(icc: Buffer): Map<string, Buffer> {
  const tags = new Map<string, Buffer>();
  if (icc.length < 132) return tags;
  const count = icc.readUInt32BE(128);
  for (let i = 0; i < count && 144 + 12 * i <= icc.length; i++) {
    const entry = 132 + 12 * i;
    const [offset, size] = [icc.readUInt32BE(entry + 4), icc.readUInt32BE(entry + 8)];
    tags.set(icc.toString('latin1', entry, entry + 4), icc.subarray(offset, offset + size));
  }
  return tags;
}

/** A TRC tag as a function from 0-1 to linear 0-1: curveType (ICC.1 10.5) or parametricCurveType (10.18). */
function toneCurve(tag: Buffer | undefined): ((value: number) => number) | null {
  const type = tag?.toString('latin1', 0, 4);
  if (!tag || tag.length < 12) return null;
  if (type === 'curv') {
    const count = tag.readUInt32BE(8);
    if (count === 0) return (value) => value;
    if (count === 1) {
      const gamma = tag.readUInt16BE(12) / 256;
      return (value) => value ** gamma;
    }
    const table = Array.from({ length: count }, (_, i) => tag.readUInt16BE(12 + 2 * i) / 65535);
    return (value) => {
      const at = Math.min(Math.max(value, 0), 1) * (count - 1);
      const below = Math.floor(at);
      const above = Math.min(below + 1, count - 1);
      return (table[below] as number) + ((table[above] as number) - (table[below] as number)) * (at - below);
    };
  }
  if (type === 'para') {
    const kind = tag.readUInt16BE(8);
    const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from(
      { length: [1, 3, 4, 5, 7][kind] ?? 0 },
      (_, i) => readS15Fixed16(tag, 12 + 4 * i),
    );
    const power = (value: number) => Math.max(a * value + b, 0) ** g;
    switch (kind) {
      case 0:
        return (value) => value ** g;
      case 1:
        return (value) => (value >= -b / a ? power(value) : 0);
      case 2:
        return (value) => (value >= -b / a ? power(value) + c : c);
      case 3:
        return (value) => (value >= d ? power(value) : c * value);
      case 4:
        return (value) => (value >= d ? power(value) + e : c * value + f);
      default:
        return null;
    }
  }
  return null;
}

/** XYZ (D50, the PCS) to linear sRGB: sRGB's IEC 61966-2-1 matrix, its D65 white adapted to D50 with Bradford. */
function pcsToLinearSrgb(): Matrix {
  const toD65: Matrix = [
    [0.4124, 0.3576, 0.1805],
    [0.2126, 0.7152, 0.0722],
    [0.0193, 0.1192, 0.9505],
  ];
  const white = toD65.map((row) => row[0] + row[1] + row[2]) as Vector;
  const [source, target] = [apply(BRADFORD, white), apply(BRADFORD, D50)];
  const adapt = multiply(
    invert(BRADFORD),
    multiply(diagonal([target[0] / source[0], target[1] / source[1], target[2] / source[2]]), BRADFORD),
  );
  return invert(multiply(adapt, toD65));
}

/**
 * For an RGB matrix/TRC profile (what display profiles are: sRGB, Display P3, Adobe RGB), a
 * function from its 8-bit numbers (fractions allowed) to linear sRGB, unclipped: below 0 and above 1
 * where the colour lies outside sRGB. Relative colorimetric, as lcms converts these profiles. Null
 * for a profile of another kind (a LUT profile, CMYK).
 */
export function profileToLinearSrgb(icc: Buffer): ((rgb: readonly [number, number, number]) => Vector) | null {
  const tags = tagsOf(icc);
  if (icc.toString('latin1', 16, 20) !== 'RGB ' || icc.toString('latin1', 20, 24) !== 'XYZ ') return null;
  const curves = ['rTRC', 'gTRC', 'bTRC'].map((signature) => toneCurve(tags.get(signature)));
  const colorants = ['rXYZ', 'gXYZ', 'bXYZ'].map((signature) => {
    const tag = tags.get(signature);
    return tag && tag.length >= 20 && tag.toString('latin1', 0, 4) === 'XYZ '
      ? ([8, 12, 16].map((at) => readS15Fixed16(tag, at)) as Vector)
      : null;
  });
  if (curves.some((curve) => !curve) || colorants.some((colorant) => !colorant)) return null;
  const [r, g, b] = colorants as [Vector, Vector, Vector];
  const toPcs: Matrix = [
    [r[0], g[0], b[0]],
    [r[1], g[1], b[1]],
    [r[2], g[2], b[2]],
  ];
  const toSrgb = multiply(pcsToLinearSrgb(), toPcs);
  return (rgb) => apply(toSrgb, rgb.map((value, i) => (curves[i] as (value: number) => number)(value / 255)) as Vector);
}
