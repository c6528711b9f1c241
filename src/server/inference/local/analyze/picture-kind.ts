// "photo" or "illustration" as a keyword. nsfwjs's classes (computed for moderation anyway) alone
// misjudge both ways here: the rocket photo is 0.79 "Drawing", a flat vector drawing 0.25-0.39.
// Flat areas tell them apart on the measured set: neighbouring pixels of the same colour make
// 84-97% of drawings (PNG or JPEG q75) and 24-59% of photos (decision 019). So: illustration when
// the image is flat or nsfwjs is sure; photo only when both agree; nothing when they disagree.
import type { NsfwScores } from '../../../images/moderation/image-moderation';
import type { Keyword } from '../../provider';
import { type AnalysisPixels, OPAQUE_ALPHA } from './analysis-pixels';

/** Share of flat neighbours from which an image is an illustration. */
const FLAT_ILLUSTRATION = 0.75;
/** nsfwjs's drawing classes' probability from which it is trusted on its own. */
const SURE_DRAWING = 0.9;
/** Neighbours this close on every channel (0-255) count as one flat colour (JPEG noise aside). */
const FLAT_DIFFERENCE = 2;

/** Share of horizontally neighbouring opaque pixel pairs of (nearly) the same colour; null if none. */
export function flatShare({ data, width, height }: AnalysisPixels): number | null {
  let pairs = 0;
  let flat = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x + 1 < width; x += 1) {
      const i = (y * width + x) * 4;
      const j = i + 4;
      if ((data[i + 3] ?? 0) < OPAQUE_ALPHA || (data[j + 3] ?? 0) < OPAQUE_ALPHA) continue;
      pairs += 1;
      let same = true;
      for (let c = 0; c < 3; c += 1) {
        if (Math.abs((data[i + c] ?? 0) - (data[j + c] ?? 0)) > FLAT_DIFFERENCE) same = false;
      }
      if (same) flat += 1;
    }
  }
  return pairs === 0 ? null : flat / pairs;
}

/** "illustration", "photo" or nothing, scored 0-1. */
export function pictureKind(pixels: AnalysisPixels, scores: NsfwScores): Keyword[] {
  const flat = flatShare(pixels);
  if (flat === null) return [];
  const drawing = scores.Drawing + scores.Hentai;
  const round = (score: number) => Math.round(score * 100) / 100;
  if (flat >= FLAT_ILLUSTRATION || drawing >= SURE_DRAWING) {
    return [{ keyword: 'illustration', score: round(Math.max(drawing, flat)) }];
  }
  if (drawing < 0.5) return [{ keyword: 'photo', score: round(1 - drawing) }];
  return [];
}
