// The local Image Analyzer (product-spec.md, "Analysis response"): keywords with scores 0-1 and a
// named palette. Keywords are the image's measured properties, what the vision models see, the
// words written in it, and whether it is a photo or an illustration.

import type { ImageInput } from '../../../images/image-types';
import type { NsfwClassifier } from '../../../images/moderation/image-moderation';
import type { Keyword, ToolResult } from '../../provider';
import { visionKeywords } from '../faces/vision-keywords';
import type { LocalEngine } from '../local-engine';
import { createNsfwjsClassifier } from '../nsfw/nsfw-classifier';
import type { RawImage } from '../raw-image';
import { textKeywords } from '../text/text-keywords';
import { decodeForAnalysis } from './analysis-pixels';
import { imageProperties } from './image-properties';
import { extractPalette } from './palette';
import { pictureKind } from './picture-kind';

/** Enough to read at a glance; the weakest are dropped. */
const MAX_KEYWORDS = 12;

/** Keywords a model finds in the decoded upload. */
export type KeywordSource = (image: RawImage, signal?: AbortSignal) => Promise<Keyword[]>;

/** The models behind the keywords (tests put fakes in their place). */
export type AnalyzerModels = { vision: KeywordSource; text: KeywordSource; classifier: NsfwClassifier };

let localModels: AnalyzerModels | undefined;
const defaultModels = () => {
  localModels ??= { vision: visionKeywords, text: textKeywords, classifier: createNsfwjsClassifier() };
  return localModels;
};

export async function analyzeImage(
  image: ImageInput,
  signal?: AbortSignal,
  models: Partial<AnalyzerModels> = {},
): Promise<Extract<ToolResult, { kind: 'analysis' }>> {
  const { vision, text, classifier } = { ...defaultModels(), ...models };
  const { image: decoded, pixels } = await decodeForAnalysis(image.bytes);
  signal?.throwIfAborted();
  // Each model has its own gate (and, but for Human, its own thread): they run side by side. The
  // upload check has usually classified these bytes already; the classifier remembers them.
  const [seen, written, scores, colors] = await Promise.all([
    vision(decoded, signal),
    text(decoded, signal),
    classifier.classify(image, signal),
    extractPalette(pixels, signal),
  ]);
  const keywords = [...imageProperties(pixels), ...pictureKind(pixels, scores), ...seen, ...written];
  return { kind: 'analysis', keywords: mergeKeywords(keywords), colors };
}

/** Each keyword once (its best score), best first, at most MAX_KEYWORDS. */
export function mergeKeywords(keywords: Keyword[]): Keyword[] {
  const best = new Map<string, number>();
  for (const { keyword, score } of keywords) best.set(keyword, Math.max(best.get(keyword) ?? 0, score));
  return [...best]
    .map(([keyword, score]) => ({ keyword, score }))
    .sort((a, b) => b.score - a.score || a.keyword.localeCompare(b.keyword))
    .slice(0, MAX_KEYWORDS);
}

/** The Image Analyzer's engine: keywords and the palette of the upload. */
export const imageAnalyzerEngine: LocalEngine<{ image: ImageInput }> = ({ image }, signal) =>
  analyzeImage(image, signal);
