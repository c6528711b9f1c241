// Image-level keywords measured from the pixels, each with a score 0-1 saying how strongly the
// image has the property: orientation, brightness, colourfulness, black and white / monochrome,
// transparency. Properties weaker than MIN_SCORE are left out rather than listed at 5%. The colour
// thresholds are checked on the labelled photos, grey and colour (`npm run bench:analyzer`,
// decision 071).
import type { Keyword } from '../../provider';
import { type AnalysisPixels, OPAQUE_ALPHA } from './analysis-pixels';
import { chroma, rgbToOklab } from './oklab';

const MIN_SCORE = 0.25;
/** Width/height within 5% of 1 reads as square. */
const SQUARE_TOLERANCE = 0.05;
/** OKLab chroma below which a pixel looks grey. */
const GREY_CHROMA = 0.03;
/** Near-black pixels have no visible colour either way: they do not vote on grey, hue or colourfulness. */
const NEAR_BLACK = 0.2;
/** Lightness bands (of the lit range) within which a toned image has one colour. */
const TONE_BANDS = 16;

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
  /**
   * Hasler and Süsstrunk's colourfulness metric over the lit pixels (0 grey; 33 "moderately", 59
   * "quite", 82 "highly colourful" on their scale). Near-black pixels are left out: a starfield is
   * as colourful as its stars.
   */
  colorfulness: number;
  /** Share of opaque pixels, near-black ones aside, that look grey. */
  greyShare: number;
  /** Mean OKLab chroma of the lit pixels. */
  meanChroma: number;
  /**
   * How far the lit pixels' colours (OKLab a, b) stray from the mean colour of pixels as light as
   * they are (root mean square). A toned print (sepia, cyanotype) has one colour per lightness:
   * about 0.01; a colour photo, even of one warm hue (the tabby cat), 0.02 or more.
   */
  toneSpread: number;
};

export function measurePixels(pixels: AnalysisPixels): PixelStatistics {
  const { data } = pixels;
  const total = data.length / 4;
  let translucent = 0;
  let opaque = 0;
  let sumL = 0;
  let grey = 0;
  let lit = 0;
  let chromaSum = 0;
  let sumRg = 0;
  let sumYb = 0;
  let sumRg2 = 0;
  let sumYb2 = 0;
  // Per lightness band: pixel count, sums of a and b, and of their squares.
  const bands = Array.from({ length: TONE_BANDS }, () => ({ n: 0, a: 0, b: 0, a2: 0, b2: 0 }));
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] as number;
    if (alpha < 255) translucent++;
    if (alpha < OPAQUE_ALPHA) continue;
    opaque++;
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    const lab = rgbToOklab(r, g, b);
    sumL += lab.l;
    if (lab.l < NEAR_BLACK) continue;
    lit++;
    const c = chroma(lab);
    chromaSum += c;
    if (c < GREY_CHROMA) grey++;
    const rg = r - g;
    const yb = (r + g) / 2 - b;
    sumRg += rg;
    sumYb += yb;
    sumRg2 += rg * rg;
    sumYb2 += yb * yb;
    const index = Math.min(TONE_BANDS - 1, Math.floor(((lab.l - NEAR_BLACK) / (1 - NEAR_BLACK)) * TONE_BANDS));
    const band = bands[index] as (typeof bands)[number];
    band.n++;
    band.a += lab.a;
    band.b += lab.b;
    band.a2 += lab.a * lab.a;
    band.b2 += lab.b * lab.b;
  }
  const transparentShare = total ? translucent / total : 0;
  if (lit === 0) {
    // Nothing lit: no colour to see. An all near-black image counts as grey.
    const meanLightness = opaque ? sumL / opaque : 0;
    return {
      transparentShare,
      meanLightness,
      colorfulness: 0,
      greyShare: opaque ? 1 : 0,
      meanChroma: 0,
      toneSpread: 0,
    };
  }
  const meanRg = sumRg / lit;
  const meanYb = sumYb / lit;
  const sdRg = Math.sqrt(Math.max(0, sumRg2 / lit - meanRg ** 2));
  const sdYb = Math.sqrt(Math.max(0, sumYb2 / lit - meanYb ** 2));
  // Within each band, the squared distances from the band's mean colour.
  let spread = 0;
  for (const { n, a, b, a2, b2 } of bands) if (n > 0) spread += a2 - (a * a) / n + b2 - (b * b) / n;
  return {
    transparentShare,
    meanLightness: sumL / opaque,
    colorfulness: Math.hypot(sdRg, sdYb) + 0.3 * Math.hypot(meanRg, meanYb),
    greyShare: grey / lit,
    meanChroma: chromaSum / lit,
    toneSpread: Math.sqrt(Math.max(0, spread) / lit),
  };
}

/** How strongly the image is black and white: all but a few percent of its lit pixels grey. */
const blackAndWhiteScore = (stats: PixelStatistics) => ramp(stats.greyShare, 0.97, 0.995);
/** Hasler and Süsstrunk's "quite colourful" (59) and up. */
const colorfulScore = (stats: PixelStatistics) => ramp(stats.colorfulness, 40, 80);
/**
 * How strongly the image is toned in one colour (sepia, cyanotype): one colour per lightness, and
 * a visible tint that is not vivid (a retina is one red throughout, but a colour photo: chroma 0.16
 * against 0.04-0.05 for sepia).
 */
const tonedScore = (stats: PixelStatistics) =>
  ramp(stats.toneSpread, 0.018, 0.01) * ramp(stats.meanChroma, 0.02, 0.03) * ramp(stats.meanChroma, 0.12, 0.08);

export function imageProperties(pixels: AnalysisPixels): Keyword[] {
  const stats = measurePixels(pixels);
  const keywords: Keyword[] = [orientation(pixels.uprightWidth, pixels.uprightHeight)];
  if (stats.transparentShare > 0) keywords.push({ keyword: 'transparent', score: 1 });
  // A fully transparent image has no colours to describe.
  if (stats.transparentShare < 1) {
    keywords.push({ keyword: 'bright', score: ramp(stats.meanLightness, 0.6, 0.8) });
    keywords.push({ keyword: 'dark', score: ramp(stats.meanLightness, 0.45, 0.25) });
    const blackAndWhite = blackAndWhiteScore(stats);
    keywords.push({ keyword: 'black and white', score: blackAndWhite });
    keywords.push({ keyword: 'monochrome', score: Math.max(blackAndWhite, tonedScore(stats)) });
    keywords.push({ keyword: 'colorful', score: colorfulScore(stats) });
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
