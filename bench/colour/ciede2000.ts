// Colour difference for bench/colour (issue 41): 8-bit sRGB (IEC 61966-2-1, D65) to CIELAB, and
// CIEDE2000 as Sharma, Wu and Dalal give it ("The CIEDE2000 color-difference formula:
// implementation notes, supplementary test data, and mathematical observations", 2005), with
// kL = kC = kH = 1. Checked against the paper's 34 test pairs in ciede2000.test.ts.

export type Lab = { L: number; a: number; b: number };

/** IEC 61966-2-1's matrix from linear sRGB to XYZ (D65). */
const TO_XYZ = [
  [0.4124, 0.3576, 0.1805],
  [0.2126, 0.7152, 0.0722],
  [0.0193, 0.1192, 0.9505],
] as const;
/** The Lab's reference white: sRGB's own (the matrix's rows summed, D65), so that its greys have a = b = 0. */
const WHITE = TO_XYZ.map((row) => row[0] + row[1] + row[2]) as [number, number, number];
const xyz = (row: readonly [number, number, number], [r, g, b]: readonly [number, number, number]) =>
  row[0] * r + row[1] * g + row[2] * b;

/** An sRGB channel value from 0 to 1 to linear light. */
const linear = (value: number) => (value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4);

const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);

/**
 * CIELAB of an sRGB colour given as 8-bit numbers (fractions allowed: a patch's mean), relative to
 * sRGB's D65 white.
 */
export const srgbToLab = (rgb: readonly [number, number, number]): Lab =>
  linearSrgbToLab(rgb.map((value) => linear(value / 255)) as [number, number, number]);

/**
 * CIELAB of a colour given as linear sRGB (0-1), which may lie outside 0-1: a wide-gamut colour
 * that 8-bit sRGB would clip.
 */
export function linearSrgbToLab(rgb: readonly [number, number, number]): Lab {
  const fx = f(xyz(TO_XYZ[0], rgb) / WHITE[0]);
  const fy = f(xyz(TO_XYZ[1], rgb) / WHITE[1]);
  const fz = f(xyz(TO_XYZ[2], rgb) / WHITE[2]);
  return { L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}

const degrees = (radians: number) => (radians * 180) / Math.PI;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** A hue angle in degrees from 0 to 360; 0 for a neutral (a' = b = 0), as the paper sets it. */
const hueAngle = (b: number, aPrime: number) => {
  if (b === 0 && aPrime === 0) return 0;
  const h = degrees(Math.atan2(b, aPrime));
  return h < 0 ? h + 360 : h;
};

/** CIEDE2000 between two Lab colours (Sharma et al. 2005, equations 1-22). */
export function ciede2000(first: Lab, second: Lab): number {
  const C1 = Math.hypot(first.a, first.b);
  const C2 = Math.hypot(second.a, second.b);
  const meanC = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(meanC ** 7 / (meanC ** 7 + 25 ** 7)));
  const a1 = (1 + G) * first.a;
  const a2 = (1 + G) * second.a;
  const C1p = Math.hypot(a1, first.b);
  const C2p = Math.hypot(a2, second.b);
  const h1p = hueAngle(first.b, a1);
  const h2p = hueAngle(second.b, a2);

  const dLp = second.L - first.L;
  const dCp = C2p - C1p;
  // The hue difference the short way round the circle (the wrap-around of pairs 9-15).
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin(radians(dhp / 2));

  const meanL = (first.L + second.L) / 2;
  const meanCp = (C1p + C2p) / 2;
  let meanHp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) meanHp /= 2;
    else meanHp = h1p + h2p < 360 ? (meanHp + 360) / 2 : (meanHp - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos(radians(meanHp - 30)) +
    0.24 * Math.cos(radians(2 * meanHp)) +
    0.32 * Math.cos(radians(3 * meanHp + 6)) -
    0.2 * Math.cos(radians(4 * meanHp - 63));
  const dTheta = 30 * Math.exp(-(((meanHp - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(meanCp ** 7 / (meanCp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (meanL - 50) ** 2) / Math.sqrt(20 + (meanL - 50) ** 2);
  const SC = 1 + 0.045 * meanCp;
  const SH = 1 + 0.015 * meanCp * T;
  const RT = -Math.sin(radians(2 * dTheta)) * RC;
  return Math.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH));
}

/** CIEDE2000 between two sRGB colours (8-bit numbers, fractions allowed). */
export const srgbDeltaE = (first: readonly [number, number, number], second: readonly [number, number, number]) =>
  ciede2000(srgbToLab(first), srgbToLab(second));
