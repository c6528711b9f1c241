// The Image Analyzer's palette: colorthief's median cut (in OKLCH) on the opaque pixels, then
// tidied for people: near-identical colours merged, slivers under 1% folded into their nearest
// kept colour, at most 8 colours, named, and whole percentages that add up to exactly 100.
import { getPalette } from 'colorthief';
import type { Color } from '../../provider';
import { type AnalysisPixels, OPAQUE_ALPHA } from './analysis-pixels';
import { nearestColorName } from './color-names';
import { type Lab, oklabDistance, rgbToOklab } from './oklab';

const MAX_COLORS = 8;
/** Asked of the quantizer: a few more than shown, so that merging still leaves enough. */
const QUANTIZED_COLORS = 12;
/** Colours closer than this in OKLab look alike side by side (about 2-3 CIELAB ΔE units). */
const SAME_COLOR_DISTANCE = 0.03;
/** A colour covering less of the image than this is folded into its nearest neighbour. */
const MIN_SHARE = 0.01;

type Swatch = { hex: string; lab: Lab; share: number };

export async function extractPalette(pixels: AnalysisPixels, signal?: AbortSignal): Promise<Color[]> {
  if (!hasOpaquePixel(pixels)) return [];
  const quantized = await getPalette(pixels.data, {
    // Our pixels are decoded already: hand them over instead of letting colorthief decode again.
    loader: { load: async () => ({ data: pixels.data, width: pixels.width, height: pixels.height }) },
    colorCount: QUANTIZED_COLORS,
    quality: 1,
    ignoreWhite: false,
    alphaThreshold: OPAQUE_ALPHA,
    signal,
  });
  if (!quantized || quantized.length === 0) return [];
  const swatches = quantized
    .map((c) => {
      const { r, g, b } = c.rgb();
      return { hex: c.hex().toLowerCase(), lab: rgbToOklab(r, g, b), share: c.proportion };
    })
    .sort((x, y) => y.share - x.share);

  const kept: Swatch[] = [];
  const folded: Swatch[] = [];
  for (const swatch of swatches) {
    const twin = kept.find((k) => oklabDistance(k.lab, swatch.lab) < SAME_COLOR_DISTANCE);
    if (twin) twin.share += swatch.share;
    else if (kept.length < MAX_COLORS && swatch.share >= MIN_SHARE) kept.push({ ...swatch });
    else folded.push(swatch);
  }
  for (const swatch of folded) nearest(kept, swatch.lab).share += swatch.share;

  const percentages = wholePercentages(kept.map((k) => k.share));
  return kept
    .map((k, i) => ({ hex: k.hex, name: nearestColorName(k.lab), percentage: percentages[i] as number }))
    .sort((x, y) => y.percentage - x.percentage);
}

function hasOpaquePixel(pixels: AnalysisPixels): boolean {
  for (let i = 3; i < pixels.data.length; i += 4) if ((pixels.data[i] as number) >= OPAQUE_ALPHA) return true;
  return false;
}

function nearest(swatches: Swatch[], lab: Lab): Swatch {
  let best = swatches[0] as Swatch;
  for (const s of swatches) if (oklabDistance(s.lab, lab) < oklabDistance(best.lab, lab)) best = s;
  return best;
}

/**
 * Whole percentages summing to exactly 100 (largest remainder): each share gets its floor, and the
 * points left over go to the shares that lost the most in rounding down.
 */
export function wholePercentages(shares: number[]): number[] {
  const total = shares.reduce((sum, s) => sum + s, 0);
  if (shares.length === 0 || total <= 0) return shares.map(() => 0);
  const exact = shares.map((s) => (s / total) * 100);
  const result = exact.map(Math.floor);
  let left = 100 - result.reduce((sum, p) => sum + p, 0);
  const byRemainder = exact
    .map((e, i) => ({ i, remainder: e - Math.floor(e) }))
    .sort((x, y) => y.remainder - x.remainder);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    result[i] = (result[i] as number) + 1;
    left -= 1;
  }
  return result;
}
