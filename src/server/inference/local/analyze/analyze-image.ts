// The local Image Analyzer (product-spec.md, "Analysis response"): keywords with scores 0-1 and a
// named palette. Keywords are the image's measured properties plus what the vision models see.

import type { ImageAnalyzerInput } from '../../../tools/image-analyzer';
import type { LocalEngine } from '../../../tools/server-tool';
import type { ImageInput, Keyword, ToolResult } from '../../provider';
import { visionKeywords } from '../faces/vision-keywords';
import type { RawImage } from '../raw-image';
import { decodeForAnalysis } from './analysis-pixels';
import { imageProperties } from './image-properties';
import { extractPalette } from './palette';

/** Enough to read at a glance; the weakest are dropped. */
const MAX_KEYWORDS = 12;

/** What the vision models see in the decoded upload. */
export type KeywordSource = (image: RawImage, signal?: AbortSignal) => Promise<Keyword[]>;

export async function analyzeImage(
  image: ImageInput,
  signal?: AbortSignal,
  vision: KeywordSource = visionKeywords,
): Promise<Extract<ToolResult, { kind: 'analysis' }>> {
  const { image: decoded, pixels } = await decodeForAnalysis(image.bytes);
  signal?.throwIfAborted();
  const [seen, colors] = await Promise.all([vision(decoded, signal), extractPalette(pixels, signal)]);
  return { kind: 'analysis', keywords: mergeKeywords([...imageProperties(pixels), ...seen]), colors };
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

export const imageAnalyzerEngine: LocalEngine<ImageAnalyzerInput> = (input, signal) =>
  analyzeImage(input.image, signal);
