// OKLab (Björn Ottosson, 2020): a perceptual colour space where Euclidean distance tracks how
// different two colours look, used for palette merging, colour names and image properties.

export type Lab = { l: number; a: number; b: number };

/** sRGB channel 0-255 to linear light, through a 256-entry table (called per pixel). */
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => {
  const s = i / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
});

export function rgbToOklab(r: number, g: number, b: number): Lab {
  const lr = LINEAR[Math.round(r)] as number;
  const lg = LINEAR[Math.round(g)] as number;
  const lb = LINEAR[Math.round(b)] as number;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    l: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

export function oklabDistance(x: Lab, y: Lab): number {
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

/** Colourfulness of an OKLab colour (0 for greys, about 0.32 for pure sRGB red). */
export const chroma = (c: Lab) => Math.hypot(c.a, c.b);

export function parseHex(hex: string): [number, number, number] {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = Number.parseInt(match[1] as string, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export const toHex = (r: number, g: number, b: number) =>
  `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
