// Image-level keywords measured from the pixels, each with a score 0-1 saying how strongly the
// image has the property: orientation, brightness, colourfulness, black and white / monochrome,
// transparency. Properties weaker than MIN_SCORE are left out rather than listed at 5%.
import type { Keyword } from '../../provider';
import { type AnalysisPixels, OPAQUE_ALPHA } from './analysis-pixels';
import { chroma, rgbToOklab } from './oklab';

const MIN_SCORE = 0.25;
/** Width/height within 5% of 1 reads as square. */
const SQUARE_TOLERANCE = 0.05;
/** OKLab chroma below which a pixel looks grey. */
const GREY_CHROMA = 0.03;
/** Near-black pixels have no visible colour either way: they do not vote on grey or hue. */
const NEAR_BLACK = 0.2;

/** 0 at `from`, 1 at `to`, linear in between (either direction). */
function ramp(value: number, from: number, to: number): number {
  const t = (value - from) / (to - from);
  return Math.min(1, Math.max(0, t));
}

export type PixelStatistics = {
  /** Share of pixels that are not fully opaque. */
  transparentShare: number;
  /** Mean OKLab lightness of the opaque pixels (0 black, 1 white). */
  meanLightness: number;
  /** Hasler and Süsstrunk's colourfulness metric (0 grey; above ~60 highly colourful). */
  colorfulness: number;
  /** Share of opaque pixels, near-black ones aside, that look grey. */
  greyShare: number;
  /** How concentrated the coloured pixels' hues are (1: a single hue), weighted by chroma. */
  hueConcentration: number;
};

export function measurePixels(pixels: AnalysisPixels): PixelStatistics {
  const { data } = pixels;
  const total = data.length / 4;
  let translucent = 0;
  let opaque = 0;
  let sumL = 0;
  let grey = 0;
  let lit = 0;
  let sumRg = 0;
  let sumYb = 0;
  let sumRg2 = 0;
  let sumYb2 = 0;
  let hueX = 0;
  let hueY = 0;
  let chromaSum = 0;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] as number;
    if (alpha < 255) translucent++;
    if (alpha < OPAQUE_ALPHA) continue;
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    opaque++;
    const lab = rgbToOklab(r, g, b);
    sumL += lab.l;
    const c = chroma(lab);
    if (lab.l >= NEAR_BLACK) lit++;
    if (lab.l >= NEAR_BLACK && c < GREY_CHROMA) grey++;
    else if (lab.l >= NEAR_BLACK) {
      // Hue as a unit vector weighted by chroma: strong colours count more than tints.
      hueX += lab.a;
      hueY += lab.b;
      chromaSum += c;
    }
    const rg = r - g;
    const yb = (r + g) / 2 - b;
    sumRg += rg;
    sumYb += yb;
    sumRg2 += rg * rg;
    sumYb2 += yb * yb;
  }
  if (opaque === 0) {
    return {
      transparentShare: total ? translucent / total : 0,
      meanLightness: 0,
      colorfulness: 0,
      greyShare: 0,
      hueConcentration: 0,
    };
  }
  const meanRg = sumRg / opaque;
  const meanYb = sumYb / opaque;
  const sdRg = Math.sqrt(Math.max(0, sumRg2 / opaque - meanRg ** 2));
  const sdYb = Math.sqrt(Math.max(0, sumYb2 / opaque - meanYb ** 2));
  return {
    transparentShare: translucent / total,
    meanLightness: sumL / opaque,
    colorfulness: Math.hypot(sdRg, sdYb) + 0.3 * Math.hypot(meanRg, meanYb),
    // An image that is all near-black counts as grey.
    greyShare: lit > 0 ? grey / lit : 1,
    hueConcentration: chromaSum > 0 ? Math.hypot(hueX, hueY) / chromaSum : 0,
  };
}

export function imageProperties(pixels: AnalysisPixels): Keyword[] {
  const stats = measurePixels(pixels);
  const keywords: Keyword[] = [orientation(pixels.uprightWidth, pixels.uprightHeight)];
  if (stats.transparentShare > 0) keywords.push({ keyword: 'transparent', score: 1 });
  // A fully transparent image has no colours to describe.
  if (stats.transparentShare < 1) {
    keywords.push({ keyword: 'bright', score: ramp(stats.meanLightness, 0.6, 0.8) });
    keywords.push({ keyword: 'dark', score: ramp(stats.meanLightness, 0.45, 0.25) });
    const blackAndWhite = ramp(stats.greyShare, 0.9, 0.99);
    keywords.push({ keyword: 'black and white', score: blackAndWhite });
    const colorful = ramp(stats.colorfulness, 40, 80);
    // One hue among the coloured pixels (a sepia print, a red square) is monochrome too, unless
    // that hue is vivid and varied enough to read as colourful (a warm photo of coffee).
    const singleHue = ramp(stats.hueConcentration, 0.9, 0.99) * (1 - stats.greyShare) * (1 - colorful);
    keywords.push({ keyword: 'monochrome', score: Math.max(blackAndWhite, singleHue) });
    keywords.push({ keyword: 'colorful', score: colorful });
    // Grey images are muted by definition: "black and white" already says it.
    if (blackAndWhite < MIN_SCORE) keywords.push({ keyword: 'muted', score: ramp(stats.colorfulness, 30, 10) });
  }
  return keywords.filter((k) => k.score >= MIN_SCORE).map((k) => ({ ...k, score: round2(k.score) }));
}

function orientation(width: number, height: number): Keyword {
  const ratio = width / height;
  if (Math.abs(ratio - 1) <= SQUARE_TOLERANCE) return { keyword: 'square', score: 1 };
  return { keyword: ratio > 1 ? 'landscape orientation' : 'portrait orientation', score: 1 };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
