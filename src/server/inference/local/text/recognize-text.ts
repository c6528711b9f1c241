// The line recogniser's pre- and post-processing (PaddleOCR's CRNN/SVTR input and CTC decoding):
// a cropped line at height 48, and the greedy decoding of its per-step character probabilities.

/** The recogniser's input height. */
export const LINE_HEIGHT = 48;
/** Longer lines are squeezed to this width, to bound a run's time (about 80 characters). */
export const MAX_LINE_WIDTH = 1280;

/** The width a `width` x `height` crop gets at LINE_HEIGHT. */
export const lineWidth = (width: number, height: number) =>
  Math.min(MAX_LINE_WIDTH, Math.max(LINE_HEIGHT / 3, Math.ceil((LINE_HEIGHT * width) / height)));

/** Values scaled to [-1, 1]. */
export const RECOGNIZER_NORMALISATION = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

/**
 * CTC greedy decoding of the likeliest character at each step (`best`, with its probability):
 * repeats merged, blanks (index 0) dropped. The confidence is the mean probability of the
 * characters kept (PaddleOCR's own).
 */
export function ctcDecode(
  best: Int32Array,
  bestScore: Float32Array,
  characters: string[],
): { text: string; score: number } {
  let text = '';
  let total = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < best.length; t += 1) {
    const index = best[t] as number;
    if (index !== 0 && index !== previous) {
      text += characters[index] ?? '';
      total += bestScore[t] as number;
      kept += 1;
    }
    previous = index;
  }
  return { text, score: kept === 0 ? 0 : total / kept };
}
