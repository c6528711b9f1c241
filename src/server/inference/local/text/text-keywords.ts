// Words read in the image as Image Analyzer keywords. Only what the recogniser is sure of, and only
// Latin words and numbers of two characters or more: its alphabet is mostly Chinese, and on photos
// without text it "reads" texture as stray signs ("米*" at 0.79 on a rocket, "+★★" at 0.71 on a
// uniform), while rendered and printed words came back at 0.95 or more (decision 019).
import type { Keyword } from '../../provider';
import type { RawImage } from '../raw-image';
import { readText, type TextLine } from './read-text';

/** Lines read with less confidence than this give no keywords (measured: bench/analyzer.ts). */
export const MIN_TEXT_SCORE = 0.9;
const WORD = /^[A-Za-z0-9]{2,}$/;

/** The confident lines' words, lower-cased, each with its line's confidence. */
export function wordsAsKeywords(lines: TextLine[]): Keyword[] {
  return lines
    .filter((line) => line.score >= MIN_TEXT_SCORE)
    .flatMap((line) =>
      line.text
        .split(/\s+/)
        // Punctuation around a word ("SALE!", "(2026)") is not part of it.
        .map((word) => word.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''))
        .filter((word) => WORD.test(word))
        .map((word) => ({ keyword: word.toLowerCase(), score: Math.round(line.score * 100) / 100 })),
    );
}

/** The words found in the image as keywords. */
export async function textKeywords(image: RawImage, signal?: AbortSignal): Promise<Keyword[]> {
  return wordsAsKeywords(await readText(image, signal));
}
